"""Hourly turbidity forecaster for the estuary buoy.

Turbidity responds to the spring-neap tidal range (resuspension on the ebb),
river floods (with a lag of a few hours) and wind events. The task is a direct
multi-step forecast: one model per horizon.
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from numpy.lib.stride_tricks import sliding_window_view


@dataclass
class Config:
    hours: int = 24 * 365 * 2
    lookback: int = 24
    horizon: int = 6
    hidden: int = 64
    epochs: int = 12
    batch_size: int = 128
    lr: float = 2e-3
    val_frac: float = 0.2
    seed: int = 0


def parse_config() -> Config:
    p = argparse.ArgumentParser()
    for f in dataclasses.fields(Config):
        p.add_argument(f"--{f.name.replace('_', '-')}", type=type(f.default),
                       default=f.default)
    ns = p.parse_args()
    kw = {f.name: type(f.default)(getattr(ns, f.name)) for f in dataclasses.fields(Config)}
    return Config(**kw)


# ----------------------------------------------------------------------------- data

def make_series(hours: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    t = np.arange(hours, dtype=np.float64)
    m2 = 2 * math.pi / 12.42
    springneap = 1.0 + 0.45 * np.sin(2 * math.pi * t / (24 * 14.77))
    tide = springneap * np.sin(m2 * t)
    # river discharge: baseflow + random flood pulses with slow recession
    q = np.full(hours, 40.0)
    pulse = 0.0
    for i in range(hours):
        if rng.random() < 1 / 400:
            pulse += rng.uniform(80, 300)
        pulse *= 0.985
        q[i] += pulse
    wind = np.abs(rng.normal(6, 3, hours))
    wind = np.convolve(wind, np.ones(6) / 6, mode="same")
    # turbidity: AR(1) around a driven mean, with noise large enough that
    # the next hour is not trivial to guess
    turb = np.zeros(hours)
    for i in range(1, hours):
        ebb = max(0.0, -np.cos(m2 * i)) * springneap[i]
        drive = 8 + 14 * ebb + 0.12 * q[max(i - 5, 0)] + 0.04 * wind[i] ** 2
        turb[i] = 0.8 * turb[i - 1] + 0.2 * drive + rng.normal(0, 2.0)
    return {"turb": turb, "tide": tide, "discharge": q, "wind": wind}


def windows(series: dict[str, np.ndarray], lookback: int, horizon: int):
    """Cut the record into (past lookback hours) -> (turbidity `horizon` hours later).

    Each window spans lookback + horizon hours; channel 0 is turbidity, so the
    target is channel 0 at the last hour of the window.
    """
    feats = np.stack([series["turb"], series["tide"], np.log(series["discharge"]),
                      series["wind"]], axis=1)
    span = lookback + horizon
    w = sliding_window_view(feats, span, axis=0)      # [N, C, span]
    w = w.transpose(0, 2, 1)                           # [N, span, C]
    past = w[:, -lookback:]
    target = w[:, -1, 0]
    return np.ascontiguousarray(past, dtype=np.float32), np.asarray(target, dtype=np.float32)


class Standardizer:
    def fit(self, x, y):
        self.xm = x.reshape(-1, x.shape[-1]).mean(0)
        self.xs = x.reshape(-1, x.shape[-1]).std(0) + 1e-6
        self.ym, self.ys = y.mean(), y.std() + 1e-6
        return self

    def x(self, x):
        return (x - self.xm) / self.xs

    def y(self, y):
        return (y - self.ym) / self.ys


# ----------------------------------------------------------------------------- model

class WindowMLP(nn.Module):
    def __init__(self, lookback: int, n_feat: int, hidden: int):
        super().__init__()
        self.net = nn.Sequential(
            nn.Flatten(),
            nn.Linear(lookback * n_feat, hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def r2(pred: np.ndarray, y: np.ndarray) -> float:
    return 1.0 - float(((pred - y) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def main():
    cfg = parse_config()
    rng = np.random.default_rng(cfg.seed)
    torch.manual_seed(cfg.seed)
    t0 = time.time()

    series = make_series(cfg.hours, np.random.default_rng(1234))
    x, y = windows(series, cfg.lookback, cfg.horizon)
    cut = int(len(x) * (1 - cfg.val_frac))
    # a gap of one lookback between the blocks keeps validation windows clean
    xtr, ytr = x[:cut], y[:cut]
    xva, yva = x[cut + cfg.lookback:], y[cut + cfg.lookback:]

    st = Standardizer().fit(xtr, ytr)
    xtr_t = torch.from_numpy(st.x(xtr))
    ytr_t = torch.from_numpy(st.y(ytr))
    xva_t = torch.from_numpy(st.x(xva))

    model = WindowMLP(cfg.lookback, x.shape[-1], cfg.hidden)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=1e-4)
    loss_fn = nn.MSELoss()
    n = len(xtr_t)
    for epoch in range(cfg.epochs):
        model.train()
        order = torch.from_numpy(rng.permutation(n))
        total = 0.0
        for i in range(0, n, cfg.batch_size):
            idx = order[i:i + cfg.batch_size]
            pred = model(xtr_t[idx])
            loss = loss_fn(pred, ytr_t[idx])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            pva = model(xva_t).numpy() * st.ys + st.ym
        print(f"epoch {epoch:2d} train_mse {total / n:.4f} val_r2 {r2(pva, yva):.4f}")

    print(f"elapsed {time.time() - t0:.1f}s")
    print(f"val_r2={r2(pva, yva):.4f}")


if __name__ == "__main__":
    main()
