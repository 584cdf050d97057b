import numpy as np
import torch
from torch.utils.data import Dataset

AMBIENT_C = 30.0
SPREAD_C = 8.0


def render_tile(rng, size, cracked):
    yy, xx = np.mgrid[0:size, 0:size]
    img = AMBIENT_C + rng.normal(0, 1.0) + 2.0 * np.sin(xx / size * np.pi)
    img = img + rng.normal(0, 0.6, (size, size))
    if cracked:
        x0, y0 = rng.uniform(2, size - 2, 2)
        ang = rng.uniform(0, np.pi)
        d = np.abs((xx - x0) * np.sin(ang) - (yy - y0) * np.cos(ang))
        img = img + 2.5 * np.exp(-d ** 2 / 0.8) * (np.hypot(xx - x0, yy - y0) < size / 3)
    return img.astype(np.float32)


def transform(img, mode):
    if mode == "standardize":
        return (img - AMBIENT_C) / SPREAD_C * 4
    if mode == "minmax":
        return (img - img.min()) / (img.max() - img.min() + 1e-6)
    return img


class ThermalTiles(Dataset):
    def __init__(self, n, size, seed, norm):
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, 2, n)
        self.seeds = rng.integers(0, 2 ** 31, n)
        self.size, self.norm = size, norm

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        rng = np.random.default_rng(self.seeds[i])
        img = transform(render_tile(rng, self.size, self.labels[i]), self.norm)
        return torch.from_numpy(img)[None], torch.tensor(self.labels[i], dtype=torch.float32)
