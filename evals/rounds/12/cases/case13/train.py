#!/usr/bin/env python
"""Crop-yield regression from field rasters."""
import argparse
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import YieldCNN, log_cosh
from rasters import band_stats, make_fields


def r2(pred, y):
    return 1 - ((pred - y) ** 2).sum() / ((y - y.mean()) ** 2).sum()


def predict(model, X):
    model.eval()
    with torch.no_grad():
        out = torch.cat([model(X[i:i + 256]) for i in range(0, len(X), 256)])
    return out.reshape(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n-fields", type=int, default=2500)
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    t0 = time.time()

    X, y = make_fields(args.n_fields, seed=args.seed)
    n_tr = int(0.8 * len(X))
    mean, std = band_stats(X[:n_tr])
    X = (X - mean) / std
    y_mean, y_std = y[:n_tr].mean(), y[:n_tr].std()
    y = (y - y_mean) / y_std
    Xtr, ytr = torch.from_numpy(X[:n_tr]), torch.from_numpy(y[:n_tr])
    Xva, yva = torch.from_numpy(X[n_tr:]), torch.from_numpy(y[n_tr:])
    dl = DataLoader(TensorDataset(Xtr, ytr), batch_size=32, shuffle=True)

    model = YieldCNN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        tot = 0.0
        for xb, yb in dl:
            loss = log_cosh(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        val_r2 = r2(predict(model, Xva), yva).item()
        print(f"epoch {epoch + 1:2d} logcosh={tot / len(dl):.4f} val_r2={val_r2:.4f}")
    rmse = (predict(model, Xva) - yva).pow(2).mean().sqrt().item() * y_std
    print(f"val_rmse_t_ha={rmse:.3f}  ({time.time() - t0:.1f}s)")
    print(f"METRIC val_r2={val_r2:.4f}")


if __name__ == "__main__":
    main()
