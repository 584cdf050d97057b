"""Synthetic point sets and their target statistic."""
import numpy as np
import torch


def make_sets(n, min_set, max_set, rng):
    """Returns padded points [n, max_set, 2], mask [n, max_set] and targets [n]."""
    pts = np.zeros((n, max_set, 2), dtype=np.float32)
    mask = np.zeros((n, max_set), dtype=np.float32)
    y = np.zeros(n, dtype=np.float32)
    for i in range(n):
        k = rng.integers(min_set, max_set + 1)
        centre = rng.normal(0.0, 1.0, size=2)
        scale = rng.uniform(0.2, 2.0)
        aniso = rng.uniform(0.5, 1.5, size=2)
        p = centre + scale * aniso * rng.normal(size=(k, 2))
        pts[i, :k] = p
        mask[i, :k] = 1.0
        spread = np.sqrt(((p - p.mean(0)) ** 2).sum(1).mean())
        radius = np.linalg.norm(p, axis=1).mean()
        y[i] = spread + 0.25 * radius
    return torch.from_numpy(pts), torch.from_numpy(mask), torch.from_numpy(y)


class SetDataset(torch.utils.data.Dataset):
    def __init__(self, pts, mask, y):
        self.pts, self.mask, self.y = pts, mask, y

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.pts[i], self.mask[i], self.y[i]
