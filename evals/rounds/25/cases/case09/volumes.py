import numpy as np
import torch
from torch.utils.data import Dataset

CLASSES = ["massive", "vesicular", "amygdaloidal"]
S = 16


def _sphere_mask(c, r, grid):
    return ((grid - c) ** 2).sum(-1) < r * r


def make_volume(cls, rng):
    grid = np.stack(np.meshgrid(*[np.arange(S)] * 3, indexing="ij"), -1).astype(np.float32)
    v = rng.normal(0.8, 0.08, (S, S, S)).astype(np.float32)       # rock matrix density
    if cls == 0:
        n, rr = rng.integers(0, 3), (1.0, 1.8)
    elif cls == 1:
        n, rr = rng.integers(10, 18), (1.0, 2.0)
    else:
        n, rr = rng.integers(3, 6), (2.5, 4.0)
    for _ in range(n):
        m = _sphere_mask(rng.uniform(0, S, 3), rng.uniform(*rr), grid)
        fill = 0.0 if cls != 2 else rng.uniform(0.35, 0.55)          # zeolite / calcite fill
        v[m] = fill + rng.normal(0, 0.04, m.sum())
    v *= rng.uniform(0.85, 1.15)                                   # scanner gain
    return v


class VesicleVolumes(Dataset):
    def __init__(self, per_class, seed):
        rng = np.random.default_rng(seed)
        vols, labels = [], []
        for c in range(len(CLASSES)):
            for _ in range(per_class):
                vols.append(make_volume(c, rng))
                labels.append(c)
        self.x = torch.from_numpy(np.stack(vols)).unsqueeze(1)
        self.y = torch.tensor(labels)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
