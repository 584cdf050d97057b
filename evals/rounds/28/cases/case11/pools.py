import numpy as np
import torch
from torch.utils.data import Dataset


def survey(n, seed):
    rng = np.random.default_rng(seed)
    area = rng.lognormal(0.5, 0.6, n)            # m^2
    depth = rng.uniform(5, 80, n)                # cm
    temp = rng.normal(16, 3, n)                  # C
    sal = rng.normal(34, 1.5, n)                 # psu
    height = rng.uniform(0, 2.5, n)              # m above low tide
    rock = rng.uniform(0, 1, n)
    algae = rng.uniform(0, 1, n)
    log_rate = (0.9 * np.log(area) + 1.2 * algae + 0.8 * rock - 0.7 * height
                - 0.08 * np.abs(temp - 15) - 0.25 * np.abs(sal - 34) + 0.01 * depth + 1.8)
    counts = rng.poisson(np.exp(log_rate))
    X = np.column_stack([np.log(area), depth / 50, (temp - 16) / 3, (sal - 34) / 1.5,
                         height, rock, algae]).astype(np.float32)
    return X, counts.astype(np.float32)


class PoolSurvey(Dataset):
    def __init__(self, X, counts):
        self.X = torch.from_numpy(X)
        self.counts = torch.from_numpy(counts)

    def __len__(self):
        return len(self.counts)

    def __getitem__(self, i):
        return self.X[i], self.counts[i]
