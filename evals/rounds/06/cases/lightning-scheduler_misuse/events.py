import numpy as np
import torch
from torch.utils.data import TensorDataset


def make_events(n, seed, d=24, pos_rate=0.04):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d)).astype(np.float32)
    # risk is an interaction of a few features; most of them are noise
    risk = 1.6 * x[:, 0] * x[:, 1] + 1.2 * np.sin(2 * x[:, 2]) + x[:, 3] ** 2 - 0.8 * x[:, 4] * x[:, 5]
    risk = risk + 0.4 * rng.normal(size=n)
    thresh = np.quantile(risk, 1 - pos_rate)
    y = (risk > thresh).astype(np.float32)
    return TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
