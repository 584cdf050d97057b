#!/usr/bin/env python
"""PV power forecaster. Night hours produce exactly zero, so they are kept out
of the loss and of the metric; the model only has to get daylight right."""
import argparse
import time

import torch
from torch import nn

from losses import masked_mae, masked_mse
from solar_data import FEATURES, make_sites


class PowerNet(nn.Module):
    def __init__(self, n_in, hidden=64):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(n_in, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                               nn.Linear(hidden, 1))

    def forward(self, x):
        return self.f(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    t0 = time.time()

    X, y, daylight, day = make_sites(seed=args.seed)
    tr, va = day < 190, day >= 190          # last 50 days of every site for validation
    X, y, daylight = map(torch.from_numpy, (X, y, daylight))
    Xtr, ytr, dtr = X[tr], y[tr], daylight[tr]
    Xva, yva, dva = X[va], y[va], daylight[va]
    print(f"{len(FEATURES)} features, train rows {len(ytr)}, val rows {len(yva)}, "
          f"daylight share {dtr.float().mean():.2f}")

    model = PowerNet(len(FEATURES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ytr))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            loss = masked_mse(model(Xtr[idx]), ytr[idx], dtr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        model.eval()
        with torch.no_grad():
            pred = model(Xva).clamp(min=0)
            mae_day = (pred - yva)[dva].abs().mean().item()
        print(f"epoch {epoch + 1:2d} train_loss={tot / (len(perm) / args.batch_size):.5f} "
              f"val_mae_daylight={mae_day:.4f}")
    print(f"elapsed {time.time() - t0:.1f}s")
    print(f"METRIC val_mae_daylight={mae_day:.4f}")


if __name__ == "__main__":
    main()
