import numpy as np
import torch
from torch.utils.data import TensorDataset

WINDOW = 30


def pond_series(days, seed):
    g = np.random.default_rng(seed)
    rain = g.gamma(0.6, 6.0, days) * (g.random(days) < 0.4)
    inflow = np.convolve(rain, np.exp(-np.arange(10) / 3.0), mode="full")[:days] * 0.08
    level = np.zeros(days)
    dam = 1.0
    for t in range(1, days):
        if g.random() < 0.01:
            dam = g.uniform(0.6, 1.2)          # beavers rebuild / breach
        level[t] = level[t - 1] + inflow[t] - 0.12 * max(level[t - 1] - dam, 0) - 0.01 * level[t - 1]
    return np.stack([level, rain / 10, inflow], 0).astype(np.float32)


def windows(days, seed):
    s = pond_series(days, seed)
    X = np.stack([s[:, t - WINDOW:t] for t in range(WINDOW, days - 1)])
    y = np.array([s[0, t] for t in range(WINDOW, days - 1)], dtype=np.float32)
    last = X[:, 0, -1]
    return TensorDataset(torch.from_numpy(X), torch.from_numpy(y - last), torch.from_numpy(last))
