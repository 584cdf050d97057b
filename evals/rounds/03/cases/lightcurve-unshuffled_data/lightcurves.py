"""Synthetic photometric light curves of variable stars (64 epochs each).

classes: 0 eclipsing binary, 1 pulsator (sawtooth-like), 2 flare star, 3 rotational spots
"""
import numpy as np
import torch
from torch.utils.data import TensorDataset

N_POINTS = 64
CLASSES = ["eclipsing", "pulsator", "flare", "spotted"]


def _curve(kind, rng):
    t = np.linspace(0, 1, N_POINTS)
    period = rng.uniform(0.15, 0.45)
    phase = ((t / period) + rng.uniform()) % 1.0
    if kind == 0:
        depth = rng.uniform(0.3, 0.8)
        f = 1 - depth * np.exp(-((phase - 0.25) / 0.04) ** 2) - 0.5 * depth * np.exp(-((phase - 0.75) / 0.04) ** 2)
    elif kind == 1:
        f = 1 + rng.uniform(0.2, 0.5) * (np.where(phase < 0.15, phase / 0.15, (1 - phase) / 0.85) - 0.5)
    elif kind == 2:
        f = np.ones(N_POINTS)
        for _ in range(rng.integers(1, 4)):
            t0 = rng.uniform(0, 1)
            f += rng.uniform(0.3, 1.0) * np.where(t >= t0, np.exp(-(t - t0) / rng.uniform(0.01, 0.04)), 0)
    else:
        f = 1 + rng.uniform(0.05, 0.25) * np.sin(2 * np.pi * phase) + 0.05 * np.sin(4 * np.pi * phase + rng.uniform(0, 6))
    return f + rng.normal(0, 0.06, N_POINTS)


def catalogue(per_class, seed):
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for k in range(len(CLASSES)):
        xs += [_curve(k, rng) for _ in range(per_class)]
        ys += [k] * per_class
    x = np.stack(xs).astype(np.float32)
    x = (x - x.mean(axis=1, keepdims=True)) / (x.std(axis=1, keepdims=True) + 1e-6)
    return TensorDataset(torch.from_numpy(x).unsqueeze(1), torch.tensor(ys))
