"""Synthetic pen trajectories for eight stroke shapes, as (dx, dy, pressure) per step."""
import numpy as np
import torch
from torch.utils.data import TensorDataset

SHAPES = ["circle", "zigzag", "spiral", "square", "heart", "infinity", "wave", "star"]
STEPS = 64


def _path(kind, rng):
    t = np.linspace(0, 1, STEPS + 1)
    if kind == 0:
        a = 2 * np.pi * t; x, y = np.cos(a), np.sin(a)
    elif kind == 1:
        x = t * 4; y = np.abs((t * 6) % 2 - 1)
    elif kind == 2:
        a = 6 * np.pi * t; r = 0.2 + t; x, y = r * np.cos(a), r * np.sin(a)
    elif kind == 3:
        s = (t * 4) % 1; side = np.minimum((t * 4).astype(int), 3)
        x = np.select([side == 0, side == 1, side == 2, side == 3], [s, np.ones_like(s), 1 - s, np.zeros_like(s)])
        y = np.select([side == 0, side == 1, side == 2, side == 3], [np.zeros_like(s), s, np.ones_like(s), 1 - s])
    elif kind == 4:
        a = 2 * np.pi * t; x = 16 * np.sin(a) ** 3 / 16
        y = (13 * np.cos(a) - 5 * np.cos(2 * a) - 2 * np.cos(3 * a) - np.cos(4 * a)) / 16
    elif kind == 5:
        a = 2 * np.pi * t; x = np.sin(a); y = np.sin(a) * np.cos(a)
    elif kind == 6:
        x = t * 3; y = 0.5 * np.sin(4 * np.pi * t)
    else:
        a = 4 * np.pi * t * 5 / 5; r = np.where((np.floor(t * 10) % 2) == 0, 1.0, 0.4)
        x, y = r * np.cos(a * 2.5), r * np.sin(a * 2.5)
    rot = rng.uniform(-0.5, 0.5); sc = rng.uniform(0.7, 1.3)
    xr = sc * (np.cos(rot) * x - np.sin(rot) * y)
    yr = sc * (np.sin(rot) * x + np.cos(rot) * y)
    xr += np.cumsum(rng.normal(0, 0.02, STEPS + 1)); yr += np.cumsum(rng.normal(0, 0.02, STEPS + 1))
    d = np.stack([np.diff(xr), np.diff(yr)]) * 10
    pressure = 0.5 + 0.3 * np.sin(2 * np.pi * (t[1:] + rng.uniform())) + rng.normal(0, 0.05, STEPS)
    return np.concatenate([d, pressure[None]]).astype(np.float32)


def make_split(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(SHAPES), n)
    x = np.stack([_path(k, rng) for k in y])
    return TensorDataset(torch.from_numpy(x), torch.from_numpy(y))
