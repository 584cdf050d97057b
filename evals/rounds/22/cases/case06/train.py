import argparse

import numpy as np
import torch
from torch import nn

from ectsim import simulate
from losses import FocalBCE


class TraceNet(nn.Module):
    def __init__(self, ch=24):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(2, ch, 7, padding=3), nn.ReLU(),
            nn.Conv1d(ch, ch, 7, padding=3, dilation=1), nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(ch, 2 * ch, 5, padding=2), nn.ReLU(),
            nn.AdaptiveMaxPool1d(1),
        )
        self.head = nn.Linear(2 * ch, 1)

    def forward(self, x):
        x = x - x.mean(dim=2, keepdim=True)               # remove lift-off offset per segment
        return self.head(self.body(x).flatten(1)).squeeze(1)


def average_precision(scores, labels):
    order = np.argsort(-scores)
    labels = labels[order]
    tp = np.cumsum(labels)
    precision = tp / np.arange(1, len(labels) + 1)
    return float((precision * labels).sum() / max(labels.sum(), 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--gamma", type=float, default=2.0)
    ap.add_argument("--alpha", type=float, default=0.75)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = simulate(2400, 0.125, seed=21)
    xva, yva = simulate(800, 0.125, seed=22)
    xtr, ytr, xva = torch.from_numpy(xtr), torch.from_numpy(ytr), torch.from_numpy(xva)

    model = TraceNet()
    criterion = FocalBCE(alpha=args.alpha, gamma=args.gamma)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    bs = 64
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        total = 0.0
        for s in range(0, len(xtr), bs):
            idx = perm[s:s + bs]
            loss = criterion(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            val_ap = average_precision(model(xva).numpy(), yva)
        print(f"epoch {epoch + 1:2d}  focal {total / len(xtr):.4f}  val_ap {val_ap:.4f}")
    print(f"val_ap={val_ap:.4f}")


if __name__ == "__main__":
    main()
