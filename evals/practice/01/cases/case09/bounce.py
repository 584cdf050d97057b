#!/usr/bin/env python
"""Spin classification from radar bounce traces on a clay court."""
import argparse
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader

SPINS = ["flat", "topspin", "slice", "kick"]
T = 64


def trace(spin, rng):
    """Height z(t) and forward speed v(t) around the bounce at t=T/2."""
    t = np.linspace(-1, 1, T)
    v_in = rng.uniform(18, 30)
    e = {0: 0.75, 1: 0.68, 2: 0.82, 3: 0.62}[spin] + rng.normal(0, 0.02)          # restitution
    dv = {0: -0.18, 1: -0.05, 2: -0.35, 3: 0.02}[spin] + rng.normal(0, 0.03)      # clay grabs the ball
    drop = {0: 1.0, 1: 1.5, 2: 0.7, 3: 1.8}[spin]
    z = np.where(t < 0, drop * t ** 2, e * drop * t ** 2 * (1.0 + 0.3 * (spin == 3)))
    v = np.where(t < 0, v_in * (1 - 0.05 * (t + 1)), v_in * (1 + dv) * (1 - 0.05 * t))
    x = np.stack([z, v]).astype(np.float32)
    # radar mounting: offset and gain per unit
    x[0] = x[0] * rng.uniform(0.5, 3.0) + rng.uniform(-4, 4)
    x[1] = x[1] * rng.uniform(0.2, 1.5) + rng.uniform(-10, 10)
    x += rng.normal(0, 0.03, x.shape).astype(np.float32) * x.std(1, keepdims=True)
    return x


class BounceTraces(Dataset):
    def __init__(self, n, seed, augment=False):
        rng = np.random.default_rng(seed)
        self.y = rng.integers(0, len(SPINS), n)
        self.x = np.stack([trace(s, rng) for s in self.y])
        self.augment = augment
        self.rng = np.random.default_rng(seed + 1)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        x = self.x[i].copy()
        if self.augment:
            x *= self.rng.uniform(0.9, 1.1, (2, 1)).astype(np.float32)
            x = np.roll(x, int(self.rng.integers(-2, 3)), axis=1)
            x = (x - x.mean(1, keepdims=True)) / (x.std(1, keepdims=True) + 1e-6)
        return torch.from_numpy(x), int(self.y[i])


class SpinNet(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(2, width, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width, 3, padding=1), nn.ReLU(),
        )
        self.fc = nn.Linear(width * (T // 4), len(SPINS))

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


def accuracy(model, loader):
    model.eval()
    hit = n = 0
    with torch.no_grad():
        for x, y in loader:
            hit += (model(x).argmax(1) == y).sum().item()
            n += len(y)
    return hit / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--bs", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=2)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train_ds = BounceTraces(2400, args.seed, augment=True)
    val_ds = BounceTraces(600, args.seed + 100, augment=False)
    train_dl = DataLoader(train_ds, batch_size=args.bs, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=256)

    model = SpinNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for ep in range(args.epochs):
        model.train()
        tot = 0.0
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
        print(f"epoch {ep + 1:2d}  loss {tot / len(train_ds):.4f}  val_acc {accuracy(model, val_dl):.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"val_acc={accuracy(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
