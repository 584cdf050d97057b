#!/usr/bin/env python
"""Lock waiting-time forecaster."""
import argparse
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HIST = 48          # half-hour slots
CYCLE_MIN = 22.0   # one lockage


def simulate(n, rng):
    """Queue simulation: two directions share the chamber; every lockage
    serves one direction. Wait of a barge arriving now ~ queue ahead."""
    up = rng.poisson(rng.uniform(0.2, 1.2, (n, 1)) * (1 + 0.8 * np.sin(np.linspace(0, 2 * np.pi, HIST))[None] ** 2),
                     (n, HIST))
    down = rng.poisson(rng.uniform(0.2, 1.2, (n, 1)), (n, HIST))
    shift = rng.integers(0, 3, n)                      # 0 day, 1 evening, 2 relief keeper
    level = rng.normal(0, 1, n)                        # river level anomaly
    capacity = 1.6 - 0.35 * (shift == 2) - 0.25 * np.clip(level, 0, None)   # lockages per slot
    q_up = np.zeros(n)
    q_dn = np.zeros(n)
    for t in range(HIST):                              # fluid queue with alternating service
        q_up = np.maximum(q_up + up[:, t] - capacity / 2 * 2.2, 0)
        q_dn = np.maximum(q_dn + down[:, t] - capacity / 2 * 2.2, 0)
    wait = (q_up + 0.5 * q_dn) * CYCLE_MIN / capacity + 8 + rng.normal(0, 3, n)
    hist = np.stack([up, down], 1).astype(np.float32)
    tab = np.stack([shift == 0, shift == 1, shift == 2, level], 1).astype(np.float32)
    return hist, tab, np.maximum(wait, 0).astype(np.float32)


def recency_pool(h, half_life=6.0):
    """Exponentially weighted mean over time of (B, C, T) features."""
    h = h.detach().cpu().numpy()
    w = 0.5 ** (np.arange(h.shape[-1])[::-1] / half_life)
    w = w / w.sum()
    return torch.from_numpy((h * w).sum(-1).astype(np.float32))


class WaitModel(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(2, width, 5, padding=4, dilation=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=8, dilation=4), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Linear(width + 4, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, hist, tab):
        h = self.encoder(hist)
        z = recency_pool(h)
        return self.head(torch.cat([z, tab], 1)).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=6)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)

    H, X, y = simulate(5000, rng)
    Hv, Xv, yv = simulate(1000, rng)
    H, Hv = torch.tensor(np.log1p(H)), torch.tensor(np.log1p(Hv))
    X, Xv, y, yv = map(torch.tensor, (X, Xv, y, yv))
    y_scale = float(y.std())

    model = WaitModel()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for ep in range(args.epochs):
        model.train()
        perm = torch.randperm(len(y))
        tot = 0.0
        for s in range(0, len(perm), 64):
            j = perm[s:s + 64]
            loss = F.huber_loss(model(H[j], X[j]), y[j] / y_scale * 10, delta=1.0)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(j)
        model.eval()
        with torch.no_grad():
            mae = (model(Hv, Xv) * y_scale / 10 - yv).abs().mean().item()
        if (ep + 1) % 4 == 0:
            print(f"epoch {ep + 1:2d} loss {tot / len(y):.4f} val_mae_min {mae:.2f}")
    print(f"predict-mean baseline {(yv - y.mean()).abs().mean().item():.2f} min; {time.time() - t0:.1f}s")
    print(f"val_mae_min={mae:.3f}")


if __name__ == "__main__":
    main()
