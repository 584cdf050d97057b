#!/usr/bin/env python
"""Feeder load forecasting: 48h of history -> next 12h of load."""
import argparse
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

HIST, HORIZON = 48, 12


# --------------------------------------------------------------------------- data
def simulate(n_hours, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n_hours)
    day = 2 * np.pi * (t % 24) / 24
    week = 2 * np.pi * (t % 168) / 168
    temp = 12 + 8 * np.sin(day - 2.0) + np.cumsum(rng.normal(0, 0.3, n_hours)) * 0.2
    temp -= np.convolve(temp, np.ones(500) / 500, mode="same") - 12   # keep the random walk bounded
    irr = np.clip(np.sin(day - np.pi / 2), 0, None) * rng.uniform(0.3, 1.0, n_hours)
    ar = np.zeros(n_hours)
    eps = rng.normal(0, 0.15, n_hours)
    for i in range(1, n_hours):
        ar[i] = 0.8 * ar[i - 1] + eps[i]
    load = (3.0 + 1.2 * np.sin(day - 1.2) + 0.5 * np.sin(2 * day) + 0.6 * np.cos(week)
            + 0.08 * np.maximum(temp - 18, 0) ** 2 - 0.8 * irr + ar)
    return np.stack([load, temp, irr], axis=1).astype(np.float32)


class Windows(Dataset):
    def __init__(self, series, start, stop, hist=HIST, horizon=HORIZON):
        self.series = series
        self.idx = np.arange(start, stop - hist - horizon)
        self.hist, self.horizon = hist, horizon

    def __len__(self):
        return len(self.idx)

    def __getitem__(self, k):
        i = self.idx[k]
        x = self.series[i:i + self.hist]                                  # (T, F)
        y = self.series[i + self.hist:i + self.hist + self.horizon, 0]   # future load
        return torch.from_numpy(x), torch.from_numpy(y)


def time_major(batch):
    """(B, T, F) from the default collate -> (T, B, F) for the recurrent stack."""
    return batch.reshape(batch.shape[1], batch.shape[0], *batch.shape[2:])


# -------------------------------------------------------------------------- model
class Forecaster(nn.Module):
    def __init__(self, n_feat, hidden, layers, horizon, dropout):
        super().__init__()
        self.lstm = nn.LSTM(n_feat, hidden, num_layers=layers, dropout=dropout)
        self.head = nn.Sequential(nn.Linear(hidden + n_feat, hidden), nn.Tanh(), nn.Linear(hidden, horizon))

    def forward(self, x):                    # x: (T, B, F)
        out, (h, c) = self.lstm(x)
        last = torch.cat([h[-1], x[-1]], dim=-1)
        return self.head(last)               # (B, horizon)


# --------------------------------------------------------------------------- loop
def run_epoch(model, loader, opt=None):
    train = opt is not None
    model.train(train)
    se, n = 0.0, 0
    with torch.set_grad_enabled(train):
        for x, y in loader:
            pred = model(time_major(x))
            loss = nn.functional.mse_loss(pred, y)
            if train:
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 5.0)
                opt.step()
            se += loss.item() * y.numel()
            n += y.numel()
    return (se / n) ** 0.5


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hours", type=int, default=24 * 7 * 30)
    ap.add_argument("--hidden", type=int, default=48)
    ap.add_argument("--layers", type=int, default=1)
    ap.add_argument("--dropout", type=float, default=0.0)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    raw = simulate(args.hours, args.seed)
    split = int(0.75 * len(raw))
    mu, sd = raw[:split].mean(0), raw[:split].std(0)
    series = (raw - mu) / sd

    train_ds = Windows(series, 0, split)
    val_ds = Windows(series, split, len(series))
    g = torch.Generator().manual_seed(args.seed)
    train_dl = DataLoader(train_ds, batch_size=args.batch_size, shuffle=True, generator=g, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=256)

    # seasonal naive: tomorrow looks like today
    naive = [np.sqrt(np.mean((val_ds[k][0][-24:-24 + HORIZON, 0].numpy() - val_ds[k][1].numpy()) ** 2))
             for k in range(len(val_ds))]
    naive_rmse = float(np.sqrt(np.mean(np.square(naive))))

    model = Forecaster(series.shape[1], args.hidden, args.layers, HORIZON, args.dropout)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=2)
    t0 = time.time()
    for epoch in range(1, args.epochs + 1):
        tr = run_epoch(model, train_dl, opt)
        va = run_epoch(model, val_dl)
        sched.step(va)
        print(f"epoch {epoch:2d} train_rmse {tr:.4f} val_rmse {va:.4f} lr {opt.param_groups[0]['lr']:.1e} "
              f"[{time.time() - t0:.1f}s]")
    print(f"seasonal_naive_rmse={naive_rmse:.4f}")
    print(f"val_rmse={run_epoch(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
