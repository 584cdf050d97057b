import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from model import DoorNet
from traces import CLASSES, DoorTraceDataset


def macro_f1(pred, y, k):
    f1s = []
    for c in range(k):
        tp = ((pred == c) & (y == c)).sum()
        fp = ((pred == c) & (y != c)).sum()
        fn = ((pred != c) & (y == c)).sum()
        f1s.append(2 * tp / max(2 * tp + fp + fn, 1))
    return float(np.mean(f1s))


def train_one_epoch(model, loader, opt):
    model.train()
    total, n = 0.0, 0
    for x, y in loader:
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(y)
        n += len(y)
    return total / n


@torch.no_grad()
def validate(model, loader):
    preds, ys = [], []
    for x, y in loader:
        preds.append(model(x).argmax(1))
        ys.append(y)
    return macro_f1(torch.cat(preds).numpy(), torch.cat(ys).numpy(), len(CLASSES))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    train_ds = DoorTraceDataset(per_class=400, seed=10 + args.seed)
    val_ds = DoorTraceDataset(per_class=100, seed=77)
    g = torch.Generator().manual_seed(args.seed)
    train_dl = DataLoader(train_ds, batch_size=32, shuffle=True, num_workers=args.workers,
                          persistent_workers=args.workers > 0, generator=g)
    val_dl = DataLoader(val_ds, batch_size=50, shuffle=False)

    model = DoorNet(len(CLASSES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        loss = train_one_epoch(model, train_dl, opt)
        f1 = validate(model, val_dl)
        print(f"epoch {epoch + 1} train_ce={loss:.4f} val_macro_f1={f1:.4f}")
    print(f"val_macro_f1={f1:.4f}")


if __name__ == "__main__":
    main()
