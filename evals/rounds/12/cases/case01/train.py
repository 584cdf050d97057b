#!/usr/bin/env python
"""Train an MLP forecaster of 5-day realized volatility from rolling-window features."""
import argparse
import json
import time

import numpy as np
import torch
from torch import nn

from volfeat import simulate_returns, build_table


def r2_score(pred, y):
    ss_res = ((pred - y) ** 2).sum()
    ss_tot = ((y - y.mean()) ** 2).sum()
    return 1.0 - ss_res / ss_tot


class VolMLP(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--epochs", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    if args.epochs is not None:
        cfg["epochs"] = args.epochs

    torch.manual_seed(cfg["seed"])
    t0 = time.time()
    r = simulate_returns(cfg["n_tickers"], cfg["n_days"], seed=cfg["seed"])
    X, y, day = build_table(r, cfg["windows"], cfg["horizon"])

    # chronological split: the last val_fraction of days is held out
    cut = np.quantile(np.unique(day), 1 - cfg["val_fraction"])
    tr, va = day < cut, day >= cut
    mu, sd = X[tr].mean(0), X[tr].std(0) + 1e-6
    Xtr, Xva = torch.from_numpy((X[tr] - mu) / sd), torch.from_numpy((X[va] - mu) / sd)
    y_mu = y[tr].mean()
    ytr, yva = torch.from_numpy(y[tr] - y_mu), torch.from_numpy(y[va] - y_mu)
    print(f"train rows={len(ytr)} val rows={len(yva)} features={X.shape[1]}")

    model = VolMLP(X.shape[1], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    loss_fn = nn.MSELoss()
    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(ytr))
        total = 0.0
        for i in range(0, len(perm), bs):
            idx = perm[i:i + bs]
            pred = model(Xtr[idx])
            loss = loss_fn(pred, ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            val_r2 = r2_score(model(Xva), yva).item()
        print(f"epoch {epoch + 1:2d} train_mse={total / len(ytr):.4f} val_r2={val_r2:.4f}")

    print(f"elapsed {time.time() - t0:.1f}s")
    print(f"METRIC val_r2={val_r2:.4f}")


if __name__ == "__main__":
    main()
