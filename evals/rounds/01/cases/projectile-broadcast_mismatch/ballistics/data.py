import os

import numpy as np
import torch
from torch.utils.data import Dataset

from .physics import sample_launches, simulate_range

FEATURES = ["v0", "elevation", "height", "log10_drag", "wind"]


def load_or_simulate(path, n, seed):
    if os.path.exists(path):
        d = np.load(path)
        if len(d["X"]) == n and int(d["seed"]) == seed:
            return d["X"], d["y"]
    rng = np.random.default_rng(seed)
    X = sample_launches(n, rng)
    y = simulate_range(X[:, 0], X[:, 1], X[:, 2], X[:, 3], X[:, 4])
    X[:, 3] = np.log10(X[:, 3])
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    np.savez(path, X=X, y=y, seed=seed)
    return X, y


class Standardizer:
    def fit(self, a):
        self.mean = a.mean(0)
        self.std = a.std(0) + 1e-8
        return self

    def __call__(self, a):
        return (a - self.mean) / self.std

    def inverse(self, a):
        return a * self.std + self.mean


class RangeDataset(Dataset):
    def __init__(self, X, y):
        self.X = torch.as_tensor(X, dtype=torch.float32)
        self.y = torch.as_tensor(y, dtype=torch.float32)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.X[i], self.y[i]
