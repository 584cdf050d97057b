#!/usr/bin/env python
"""Shrinkage regressor for pewter castings.

Usage:
    python shrinkage.py --make-data          # write castings.csv
    python shrinkage.py --epochs 40          # train and report val_rmse
"""
import argparse
import csv
import math
import random

import numpy as np
import torch
from torch import nn

COLUMNS = ["sn", "sb", "cu", "bi", "pour_c", "mould_c", "wall_mm", "modulus_mm", "steel_mould", "shrink_pct"]


# --------------------------------------------------------------------------- data
def make_data(path="castings.csv", n=2500, seed=3):
    rng = random.Random(seed)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for _ in range(n):
            sb = rng.uniform(1.0, 8.0)
            cu = rng.uniform(0.5, 3.0)
            bi = rng.uniform(0.0, 1.0)
            sn = 100 - sb - cu - bi
            pour = rng.uniform(250, 330)
            mould = rng.uniform(20, 180)
            wall = rng.uniform(1.0, 8.0)
            modulus = wall * rng.uniform(0.3, 0.6)
            steel = float(rng.random() < 0.4)
            shrink = (0.55 - 0.035 * sb + 0.02 * cu - 0.08 * bi
                      + 0.0025 * (pour - 290) - 0.0012 * (mould - 100) * (1 + 0.5 * steel)
                      + 0.25 * math.log(modulus) + 0.1 * steel
                      + 0.02 * sb * math.log(wall) + rng.gauss(0, 0.03))
            w.writerow([f"{v:.4f}" for v in (sn, sb, cu, bi, pour, mould, wall, modulus, steel, shrink)])
    print(f"wrote {n} rows to {path}")


def load(path="castings.csv"):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    x = np.array([[float(r[c]) for c in COLUMNS[:-1]] for r in rows], np.float32)
    y = np.array([float(r["shrink_pct"]) for r in rows], np.float32)
    return x, y


# --------------------------------------------------------------------------- model
class ShrinkMLP(nn.Module):
    def __init__(self, n_in, width=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_in, width), nn.Tanh(),
            nn.Linear(width, width), nn.Tanh(),
            nn.Linear(width, 1),
        )

    def forward(self, x):
        return self.body(x).squeeze(-1)


# --------------------------------------------------------------------------- training
def fit(model, xtr, ytr, xva, yva, epochs, lr, batch_size, log_every, seed):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.MSELoss()
    g = torch.Generator().manual_seed(seed)
    step = 0
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(xtr), generator=g)
        for s in range(0, len(xtr), batch_size):
            idx = perm[s:s + batch_size]
            loss = loss_fn(model(xtr[idx]), ytr[idx])
            loss.backward()
            opt.step()
            if step % log_every == 0:
                opt.zero_grad()
                print(f"step {step:5d}  epoch {epoch + 1:3d}  mse {loss.item():.5f}")
            step += 1
        rmse = evaluate(model, xva, yva)
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1:3d}  val_rmse {rmse:.4f}")
    return rmse


@torch.no_grad()
def evaluate(model, x, y):
    model.eval()
    return torch.sqrt(((model(x) - y) ** 2).mean()).item()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--make-data", action="store_true")
    ap.add_argument("--data", default="castings.csv")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=0.003)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if args.make_data:
        make_data(args.data)
        return
    torch.manual_seed(args.seed)

    x, y = load(args.data)
    rng = np.random.default_rng(0)
    idx = rng.permutation(len(x))
    va, tr = idx[:500], idx[500:]
    mu, sd = x[tr].mean(0), x[tr].std(0) + 1e-6
    xt = torch.from_numpy((x - mu) / sd)
    yt = torch.from_numpy(y)
    rmse = fit(ShrinkMLP(x.shape[1]), xt[tr], yt[tr], xt[va], yt[va],
               args.epochs, args.lr, args.batch_size, args.log_every, args.seed)
    print(f"target std (val): {y[va].std():.4f}")
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
