#!/usr/bin/env python
"""Conditional density estimation by classification over target bins.

Travel-time model: given trip features (distance, hour-of-day, rain, weekday)
predict the *distribution* of the trip duration, which is bimodal (congested /
free-flowing) and skewed. The duration range is cut into equal-width bins and
a network outputs a categorical distribution over them; density on the original
scale is the bin probability divided by the bin width.
"""
import argparse
import math
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def simulate_trips(n, rng):
    dist = rng.uniform(1, 20, n)                      # km
    hour = rng.uniform(0, 24, n)
    rain = (rng.random(n) < 0.25).astype(float)
    weekday = (rng.random(n) < 5 / 7).astype(float)
    rush = np.exp(-((hour - 8.5) ** 2) / 2) + np.exp(-((hour - 17.5) ** 2) / 3)
    p_jam = 1 / (1 + np.exp(-(-2 + 3.5 * rush * weekday + 1.2 * rain)))
    jam = rng.random(n) < p_jam
    speed = np.where(jam, rng.normal(18, 4, n), rng.normal(45, 6, n)).clip(5, 80)  # km/h
    minutes = 60 * dist / speed + rng.gamma(2.0, 1.5, n)
    feats = np.stack([dist / 20, np.sin(2 * np.pi * hour / 24), np.cos(2 * np.pi * hour / 24),
                      rain, weekday], axis=1)
    return feats.astype(np.float32), minutes.astype(np.float32)


class BinnedDensity(nn.Module):
    def __init__(self, n_in, n_bins, hidden=128):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
            nn.Linear(hidden, n_bins),
        )

    def forward(self, x):
        """Return the predictive distribution over bins, shape (B, n_bins)."""
        return F.softmax(self.net(x), dim=-1)

    def log_prob_bins(self, x):
        return F.log_softmax(self.net(x), dim=-1)


def to_bins(y, edges):
    return torch.bucketize(y, edges[1:-1])


def mean_nll_minutes(model, x, y, edges):
    """Average negative log density of the observed durations (nats, per minute)."""
    width = (edges[1:] - edges[:-1])
    b = to_bins(y, edges)
    with torch.no_grad():
        logp = model.log_prob_bins(x).gather(1, b[:, None]).squeeze(1)
    return (-(logp - torch.log(width[b]))).mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n-train", type=int, default=20000)
    ap.add_argument("--n-val", type=int, default=5000)
    ap.add_argument("--bins", type=int, default=40)
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    rng = np.random.default_rng(1234 + args.seed)
    Xtr, ytr = simulate_trips(args.n_train, rng)
    Xva, yva = simulate_trips(args.n_val, np.random.default_rng(99))
    Xtr, ytr, Xva, yva = map(torch.from_numpy, (Xtr, ytr, Xva, yva))

    lo, hi = 0.0, float(np.quantile(ytr.numpy(), 0.995)) + 1.0
    edges = torch.linspace(lo, hi, args.bins + 1)
    yva = yva.clamp(lo, hi - 1e-3)
    btr = to_bins(ytr.clamp(lo, hi - 1e-3), edges)
    uniform_nll = math.log(hi - lo)
    print(f"{args.bins} bins over [0, {hi:.1f}] min; uniform density nll = {uniform_nll:.3f}")

    model = BinnedDensity(Xtr.shape[1], args.bins)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for epoch in range(args.epochs):
        perm = torch.randperm(len(Xtr))
        total = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            probs = model(Xtr[idx])
            loss = F.cross_entropy(probs, btr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if epoch % 3 == 2 or epoch == args.epochs - 1:
            print(f"epoch {epoch + 1:2d} train_ce={total / len(Xtr):.4f} "
                  f"val_nll={mean_nll_minutes(model, Xva, yva, edges):.4f} ({time.time() - t0:.0f}s)")

    print(f"val_nll={mean_nll_minutes(model, Xva, yva, edges):.4f}")


if __name__ == "__main__":
    main()
