import numpy as np
import torch
from torch.utils.data import Dataset

STAGES = 5


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    months = rng.uniform(0, 60, n)
    sugar = rng.uniform(5, 60, n) * np.exp(-months / 40) + rng.normal(0, 2, n)
    ethanol = rng.uniform(10, 15, n) + rng.normal(0, 0.3, n)
    ph = 3.7 - 0.006 * months + rng.normal(0, 0.05, n)
    phenols = 200 + 3.0 * months + rng.normal(0, 20, n)
    esters = 10 + 1.2 * np.sqrt(months) * 5 + rng.normal(0, 3, n)
    aldehydes = 5 + 0.4 * months + rng.normal(0, 2.5, n)
    colour = 0.1 + 0.012 * months + rng.normal(0, 0.05, n)
    X = np.column_stack([sugar, ethanol, ph, phenols, esters, aldehydes, colour]).astype(np.float32)
    stage = np.clip((months / 12).astype(int), 0, STAGES - 1)
    return X, stage


class CellarRecords(Dataset):
    def __init__(self, X, y, mean=None, std=None):
        self.mean = X.mean(0) if mean is None else mean
        self.std = X.std(0) if std is None else std
        self.X = torch.from_numpy((X - self.mean) / self.std)
        self.y = torch.from_numpy(y)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.X[i], self.y[i]
