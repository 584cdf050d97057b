import argparse

import torch
from torch.utils.data import DataLoader, TensorDataset

from engine import SlantNet, Trainer
from strokes import make_writers


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=12)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = make_writers(120, 30, seed=args.seed)
    xva, yva = make_writers(30, 30, seed=args.seed + 500)
    train_dl = DataLoader(TensorDataset(torch.from_numpy(xtr), torch.from_numpy(ytr)),
                          batch_size=32, shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.from_numpy(xva), torch.from_numpy(yva)), batch_size=30)

    trainer = Trainer(SlantNet(), lr=args.lr, target_scale=10.0, epochs=args.epochs)
    for epoch in range(args.epochs):
        tr = trainer.fit_epoch(train_dl)
        va = trainer.validate(val_dl)
        print(f"epoch {epoch + 1:2d} train_mae {tr:.2f} val_mae {va:.2f}")
    print(f"val_mae_deg={trainer.validate(val_dl):.4f}")


if __name__ == "__main__":
    main()
