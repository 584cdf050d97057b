import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

from .engine import train_one_epoch, validate
from .events import make_split
from .model import Perceiver


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x_tr, y_tr = make_split(500, 32, seed=1)
    x_va, y_va = make_split(150, 32, seed=2)
    train_dl = DataLoader(TensorDataset(x_tr, y_tr), batch_size=args.batch_size, shuffle=True)
    val_dl = DataLoader(TensorDataset(x_va, y_va), batch_size=150)

    model = Perceiver()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-2)
    for epoch in range(1, args.epochs + 1):
        loss = train_one_epoch(model, train_dl, opt)
        acc = validate(model, val_dl)
        print(f"epoch {epoch}: train_loss={loss:.4f} val_acc={acc:.4f}")
    print(f"val_acc={validate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
