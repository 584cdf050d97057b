import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from ema import WeightEMA
from events import CLASSES, make_catalog


def build_model(n_in, n_out, hidden=64, p_drop=0.3):
    return nn.Sequential(
        nn.Linear(n_in, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p_drop),
        nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(p_drop),
        nn.Linear(hidden, n_out),
    )


@torch.no_grad()
def accuracy(net, loader):
    hits = total = 0
    for x, y in loader:
        hits += (net(x).argmax(-1) == y).sum().item()
        total += len(y)
    return hits / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--ema-decay", type=float, default=0.98)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr = make_catalog(400, seed=args.seed)
    Xva, yva = make_catalog(100, seed=args.seed + 100)
    train_dl = DataLoader(TensorDataset(Xtr, ytr), batch_size=32, shuffle=True)
    val_dl = DataLoader(TensorDataset(Xva, yva), batch_size=100)

    model = build_model(Xtr.shape[1], len(CLASSES))
    ema = WeightEMA(model, args.ema_decay)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            ema.update(model)
        model.eval()
        acc = accuracy(ema.module, val_dl)
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_acc(ema) {acc:.4f}")

    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
