#!/usr/bin/env python
"""Next-launch humidity profile forecaster (two launches a day)."""
import argparse
import math
import numpy as np
import torch
import torch.nn as nn

LEVELS = 16


def simulate_station(n_launches, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n_launches)
    z = np.linspace(0, 1, LEVELS)
    # moist boundary layer drying with height, a slow synoptic wave and a diurnal term
    base = 70 * np.exp(-2.0 * z)[None, :]
    synoptic = 15 * np.sin(2 * math.pi * t / 23.0)[:, None] * np.cos(math.pi * z)[None, :]
    diurnal = 6 * np.cos(math.pi * t)[:, None] * (1 - z)[None, :]
    ar = np.zeros((n_launches, LEVELS))
    for i in range(1, n_launches):
        ar[i] = 0.8 * ar[i - 1] + rng.normal(0, 4.0, LEVELS)
    return (base + synoptic + diurnal + ar).astype(np.float32)


def make_windows(series, window):
    """Slice a (T, LEVELS) series into (inputs, next profile) pairs."""
    xs, ys = [], []
    for i in range(len(series) - window):
        xs.append(series[i:i + window + 1].reshape(-1))
        ys.append(series[i + window])
    return np.stack(xs), np.stack(ys)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--window", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    series = simulate_station(3000, seed=5)
    split = 2400
    mean, std = series[:split].mean(), series[:split].std()
    series = (series - mean) / std
    xtr, ytr = make_windows(series[:split], args.window)
    xva, yva = make_windows(series[split:], args.window)
    xtr, ytr, xva, yva = map(torch.from_numpy, (xtr, ytr, xva, yva))

    d_in = xtr.shape[1]
    model = nn.Sequential(nn.Linear(d_in, 128), nn.Tanh(), nn.Linear(128, LEVELS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    g = torch.Generator().manual_seed(args.seed)
    for ep in range(args.epochs):
        perm = torch.randperm(len(xtr), generator=g)
        for i in range(0, len(xtr), 64):
            b = perm[i:i + 64]
            loss = nn.functional.mse_loss(model(xtr[b]), ytr[b])
            opt.zero_grad(); loss.backward(); opt.step()
        with torch.no_grad():
            val = nn.functional.mse_loss(model(xva), yva).item()
        if ep % 5 == 4:
            print(f"ep {ep+1} train_mse {loss.item():.4f} val_mse {val:.4f}")
    # report in percent RH
    rmse = math.sqrt(val) * std
    print(f"val_rmse_rh={rmse:.3f}")


if __name__ == "__main__":
    main()
