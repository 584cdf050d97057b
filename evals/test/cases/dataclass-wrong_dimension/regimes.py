"""Synthetic grid-load data with distinct operating regimes.

The load responds differently to the inputs depending on the regime
(weekday/weekend/holiday/heatwave), which is itself a function of the inputs.
"""
import numpy as np
import torch
from torch.utils.data import TensorDataset


def _regime(X):
    # regime is decided by two calendar/weather features
    return (X[:, 0] > 0).astype(int) * 2 + (X[:, 1] > 0.5).astype(int)


def _load(X, regime):
    out = np.empty(len(X))
    r0, r1, r2, r3 = (regime == k for k in range(4))
    out[r0] = 1.2 * X[r0, 2] + 0.5 * X[r0, 3] ** 2
    out[r1] = -0.8 * X[r1, 2] + np.sin(2 * X[r1, 4])
    out[r2] = 0.6 * X[r2, 5] * X[r2, 3] + 1.0
    out[r3] = np.tanh(2 * X[r3, 6]) - 0.7 * X[r3, 7]
    return out


def make_dataset(n, n_features, noise, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, n_features))
    y = _load(X, _regime(X)) + rng.normal(scale=noise, size=n)
    return TensorDataset(torch.tensor(X, dtype=torch.float32), torch.tensor(y, dtype=torch.float32))
