#!/usr/bin/env python
"""Quantile regression for delivery ETA (p10 / p50 / p90)."""
import argparse
import math
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

FEATURES = ["distance_km", "hour_sin", "hour_cos", "weekend", "rain_mm", "n_items", "tenure_months"]


# --------------------------------------------------------------------------- data
def simulate_orders(n, rng):
    dist = rng.gamma(2.0, 1.6, n)
    hour = rng.integers(8, 23, n)
    weekend = (rng.random(n) < 2 / 7).astype(float)
    rain = np.where(rng.random(n) < 0.3, rng.exponential(3.0, n), 0.0)
    items = rng.integers(1, 12, n)
    tenure = rng.integers(0, 48, n)
    rush = np.exp(-0.5 * ((hour - 12.5) / 1.2) ** 2) + np.exp(-0.5 * ((hour - 19) / 1.5) ** 2)
    median = 8 + 4.5 * dist + 6 * rush + 0.6 * items + 1.5 * rain - 0.08 * tenure + 3 * weekend
    scale = 1.0 + 0.9 * dist + 1.2 * rain + 3 * rush
    minutes = median + scale * rng.gumbel(0, 1, n)   # right-skewed delays
    X = np.stack([dist, np.sin(2 * math.pi * hour / 24), np.cos(2 * math.pi * hour / 24),
                  weekend, rain, items, tenure], 1)
    return X.astype(np.float32), np.maximum(minutes, 3).astype(np.float32)


class Orders(Dataset):
    def __init__(self, X, y, x_mean, x_std, y_mean, y_std):
        self.X = torch.from_numpy((X - x_mean) / x_std)
        # keep targets 2-D, (N, 1), like the feature matrix
        self.y = torch.from_numpy((y - y_mean) / y_std).unsqueeze(1)

    def __len__(self):
        return len(self.X)

    def __getitem__(self, i):
        return self.X[i], self.y[i]


# --------------------------------------------------------------------------- model / loss
class QuantileMLP(nn.Module):
    def __init__(self, d_in, n_q, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                                 nn.Linear(hidden, n_q))

    def forward(self, x):
        out = self.net(x)
        # enforce monotone quantiles: first output + cumulative softplus gaps
        return torch.cat([out[:, :1], out[:, :1] + torch.cumsum(nn.functional.softplus(out[:, 1:]), 1)], 1)


def pinball_loss(pred, target, quantiles):
    """pred: (B, Q); target: observed values; quantiles: (Q,)."""
    err = target.unsqueeze(-1) - pred
    return torch.maximum(quantiles * err, (quantiles - 1) * err).mean()


# --------------------------------------------------------------------------- eval
@torch.no_grad()
def evaluate(model, loader, quantiles, y_mean, y_std):
    model.eval()
    preds, ys = [], []
    for x, y in loader:
        preds.append(model(x))
        ys.append(y)
    model.train()
    p = torch.cat(preds).numpy() * y_std + y_mean           # minutes, (N, Q)
    t = torch.cat(ys).numpy().reshape(-1) * y_std + y_mean  # minutes, (N,)
    q = quantiles.numpy()
    err = t[:, None] - p
    pinball = np.maximum(q * err, (q - 1) * err).mean()
    coverage = np.mean((t >= p[:, 0]) & (t <= p[:, -1]))
    return float(pinball), float(coverage)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=8000)
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--quantiles", type=float, nargs="+", default=[0.1, 0.5, 0.9])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    X, y = simulate_orders(args.n, rng)
    n_val = args.n // 5
    Xtr, ytr, Xva, yva = X[n_val:], y[n_val:], X[:n_val], y[:n_val]
    x_mean, x_std = Xtr.mean(0), Xtr.std(0) + 1e-6
    y_mean, y_std = float(ytr.mean()), float(ytr.std())

    train_dl = DataLoader(Orders(Xtr, ytr, x_mean, x_std, y_mean, y_std), batch_size=args.batch_size, shuffle=True)
    val_dl = DataLoader(Orders(Xva, yva, x_mean, x_std, y_mean, y_std), batch_size=1024)

    quantiles = torch.tensor(args.quantiles)
    model = QuantileMLP(len(FEATURES), len(quantiles))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    t0 = time.time()
    for epoch in range(1, args.epochs + 1):
        running = 0.0
        for xb, yb in train_dl:
            loss = pinball_loss(model(xb), yb, quantiles)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        if epoch % 3 == 0:
            pb, cov = evaluate(model, val_dl, quantiles, y_mean, y_std)
            print(f"epoch {epoch:2d} train_loss {running / len(train_dl):.4f} "
                  f"val_pinball {pb:.3f} min  coverage80 {cov:.3f}  [{time.time() - t0:.1f}s]")

    pb, cov = evaluate(model, val_dl, quantiles, y_mean, y_std)
    print(f"val_coverage80={cov:.3f}")
    print(f"METRIC val_pinball={pb:.4f}")


if __name__ == "__main__":
    main()
