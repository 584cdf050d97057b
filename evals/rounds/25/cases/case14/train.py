import argparse
import random

import numpy as np
import torch
import torch.nn as nn

from features import read_log, feature_rows, sales_classes, standardize


def get_args():
    p = argparse.ArgumentParser(description="churro cart day classifier")
    p.add_argument("--log", default="data/cart_log.csv")
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--val-frac", type=float, default=0.25)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def seed_all(s):
    random.seed(s)
    np.random.seed(s)
    torch.manual_seed(s)


class DayNet(nn.Module):
    def __init__(self, d_in, hidden, n_cls=3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_cls),
        )

    def forward(self, x):
        return self.body(x)


def main():
    args = get_args()
    seed_all(args.seed)

    rows = read_log(args.log)
    X = feature_rows(rows)
    y = sales_classes(rows)
    n = min(len(X), len(y))
    X, y = X[:n], y[:n]
    print(f"days usable: {n}  class counts: {np.bincount(y).tolist()}")

    # chronological split: last quarter of the log is validation
    cut = int(n * (1 - args.val_frac))
    Xtr, Xva = standardize(X[:cut], X[cut:])
    ytr, yva = y[:cut], y[cut:]

    Xtr, ytr = torch.from_numpy(Xtr), torch.from_numpy(ytr)
    Xva, yva = torch.from_numpy(Xva), torch.from_numpy(yva)

    model = DayNet(Xtr.shape[1], args.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    crit = nn.CrossEntropyLoss()

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            opt.zero_grad()
            loss = crit(model(Xtr[idx]), ytr[idx])
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        if epoch % 10 == 0 or epoch == args.epochs - 1:
            model.eval()
            with torch.no_grad():
                acc = (model(Xva).argmax(1) == yva).float().mean().item()
            print(f"epoch {epoch:3d} train_loss {tot / len(Xtr):.4f} val_acc {acc:.3f}")

    model.eval()
    with torch.no_grad():
        acc = (model(Xva).argmax(1) == yva).float().mean().item()
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
