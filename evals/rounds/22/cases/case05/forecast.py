"""7-day-ahead lake level forecast with a small MLP over a 30-day window."""
import argparse
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn


@dataclass
class Config:
    seed: int = 0
    years: int = 10
    lookback: int = 30
    horizon: int = 7
    val_years: int = 2
    hidden: int = 64
    lr: float = 1e-3
    epochs: int = 30
    batch_size: int = 64


def simulate_lake(years, seed=7):
    rng = np.random.default_rng(seed)
    n = 365 * years
    day = np.arange(n)
    season = 0.35 * np.sin(2 * np.pi * (day - 80) / 365.0)
    rain = rng.gamma(0.35, 9.0, size=n) * (rng.random(n) < 0.3)       # mm/day
    level = np.zeros(n)
    outflow = np.zeros(n)
    store = 0.0
    lvl = 2.0
    for t in range(1, n):
        store = 0.93 * store + 0.004 * rain[t - 1]                          # slow catchment
        outflow[t] = 0.02 + 0.25 * max(lvl - 2.4, 0.0)
        lvl = lvl + store - outflow[t] + 0.02 * (2.0 + season[t] - lvl) + rng.normal(0, 0.004)
        level[t] = lvl
    return level.astype(np.float32), rain.astype(np.float32), outflow.astype(np.float32)


def make_windows(level, rain, outflow, lookback, horizon):
    """Stack (level, rain, outflow) windows and the level `horizon` days after each window."""
    feats = np.stack([level, rain / 10.0, outflow], axis=1)
    xs, ys = [], []
    for i in range(len(level) - lookback - horizon):
        end = i + lookback
        target_day = end + horizon - 1
        xs.append(feats[target_day - lookback + 1: target_day + 1].reshape(-1))
        ys.append(level[target_day])
    return np.stack(xs), np.array(ys, dtype=np.float32)


class Forecaster(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.Tanh(),
            nn.Linear(hidden, hidden), nn.Tanh(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    for k, v in Config().__dict__.items():
        ap.add_argument(f"--{k}", type=type(v), default=v)
    cfg = Config(**vars(ap.parse_args()))
    torch.manual_seed(cfg.seed)

    level, rain, outflow = simulate_lake(cfg.years)
    x, y = make_windows(level, rain, outflow, cfg.lookback, cfg.horizon)
    n_val = 365 * cfg.val_years
    xtr, ytr, xva, yva = x[:-n_val], y[:-n_val], x[-n_val:], y[-n_val:]

    mu, sd = xtr.mean(0), xtr.std(0) + 1e-6
    ymu, ysd = ytr.mean(), ytr.std()
    xtr_t = torch.from_numpy((xtr - mu) / sd)
    xva_t = torch.from_numpy((xva - mu) / sd)
    ytr_t = torch.from_numpy((ytr - ymu) / ysd)

    model = Forecaster(xtr.shape[1], cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    n = len(xtr_t)
    for epoch in range(cfg.epochs):
        model.train()
        perm = torch.randperm(n)
        tot = 0.0
        for s in range(0, n, cfg.batch_size):
            idx = perm[s:s + cfg.batch_size]
            loss = nn.functional.mse_loss(model(xtr_t[idx]), ytr_t[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        if (epoch + 1) % 5 == 0:
            model.eval()
            with torch.no_grad():
                pred = model(xva_t).numpy() * ysd + ymu
            print(f"epoch {epoch + 1:3d}  train_mse {tot / n:.4f}  val_mae_cm {100 * np.abs(pred - yva).mean():.2f}")

    model.eval()
    with torch.no_grad():
        pred = model(xva_t).numpy() * ysd + ymu
    print(f"val_mae_cm={100 * np.abs(pred - yva).mean():.3f}")


if __name__ == "__main__":
    main()
