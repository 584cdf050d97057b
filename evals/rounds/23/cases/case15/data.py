import numpy as np
import torch
from torch.utils.data import Dataset

N_USERS = 8


def synth_strokes(n, seed):
    rng = np.random.default_rng(seed)
    prof = np.random.default_rng(77)
    means = np.stack([prof.uniform(20, 60, N_USERS), prof.uniform(-30, 30, N_USERS), prof.uniform(0, 360, N_USERS),
                      prof.uniform(800, 3200, N_USERS), prof.uniform(300, 1500, N_USERS),
                      prof.uniform(150, 600, N_USERS)], 1)
    scales = np.array([6, 6, 25, 350, 180, 60])
    user = rng.integers(0, N_USERS, n)
    X = means[user] + rng.normal(0, 1, (n, 6)) * scales
    return X.astype(np.float32), user.astype(np.int64)


class Standardizer:
    def fit(self, X):
        self.mean, self.std = X.mean(0), X.std(0) + 1e-6
        return self

    def __call__(self, x):
        return (x - self.mean) / self.std


class StrokeDataset(Dataset):
    def __init__(self, X, y, transform=None):
        self.X, self.y, self.transform = X, y, transform

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        x = self.X[i]
        if self.transform is not None:
            x = self.transform(x)
        return torch.from_numpy(x), self.y[i]
