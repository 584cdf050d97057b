"""Snail race-time regression.

Reads the registration sheet and the results board, fits an MLP on
log(time) and reports R^2 on a held-out fifth of the snails.
"""
import argparse
import csv
import math
import os
import random

import numpy as np
import torch
import torch.nn as nn

import make_data

FEATURES = ["shell_mm", "weight_g", "age_days", "humidity_pct", "lettuce_g", "incline_deg", "temp_c"]


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def load_table(data_dir):
    snails = read_csv(os.path.join(data_dir, "snails.csv"))
    results = read_csv(os.path.join(data_dir, "results.csv"))
    X = np.array([[float(r[c]) for c in FEATURES] for r in snails], dtype=np.float32)
    t = np.array([float(r["time_s"]) for r in results], dtype=np.float32)
    return X, t


class Standardizer:
    def fit(self, a):
        self.mu = a.mean(0)
        self.sd = a.std(0) + 1e-6
        return self

    def __call__(self, a):
        return (a - self.mu) / self.sd


def r2_score(y, p):
    ss_res = float(((y - p) ** 2).sum())
    ss_tot = float(((y - y.mean()) ** 2).sum())
    return 1.0 - ss_res / ss_tot


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)

    if not os.path.exists(os.path.join(make_data.DATA, "results.csv")):
        make_data.main()
    X, t = load_table(make_data.DATA)
    y = np.log(t)

    idx = np.random.permutation(len(X))
    n_val = len(X) // 5
    va, tr = idx[:n_val], idx[n_val:]
    sx = Standardizer().fit(X[tr])
    y_mu, y_sd = y[tr].mean(), y[tr].std()

    Xtr = torch.tensor(sx(X[tr]))
    ytr = torch.tensor((y[tr] - y_mu) / y_sd)
    Xva = torch.tensor(sx(X[va]))

    model = nn.Sequential(nn.Linear(len(FEATURES), 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(),
                          nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.MSELoss()

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        total = 0.0
        for s in range(0, len(perm), args.batch_size):
            j = perm[s:s + args.batch_size]
            pred = model(Xtr[j]).squeeze(1)
            loss = loss_fn(pred, ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(j)
        if (epoch + 1) % 10 == 0:
            model.eval()
            with torch.no_grad():
                p = model(Xva).squeeze(1).numpy() * y_sd + y_mu
            print(f"epoch {epoch + 1:3d} train_mse {total / len(Xtr):.4f} "
                  f"val_r2(log) {r2_score(y[va], p):.4f}")

    model.eval()
    with torch.no_grad():
        p = model(Xva).squeeze(1).numpy() * y_sd + y_mu
    secs = np.exp(p)
    mae = float(np.abs(secs - t[va]).mean())
    print(f"val_mae_seconds={mae:.1f}")
    print(f"val_r2={r2_score(y[va], p):.4f}")


if __name__ == "__main__":
    main()
