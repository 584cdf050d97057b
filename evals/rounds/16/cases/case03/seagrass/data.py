import numpy as np
import torch
from torch.utils.data import Dataset


def _blob_mask(rng, size):
    yy, xx = np.mgrid[0:size, 0:size]
    mask = np.zeros((size, size), dtype=bool)
    for _ in range(rng.integers(1, 4)):
        cy, cx = rng.uniform(0, size, 2)
        ry, rx = rng.uniform(2.5, 7.0, 2)
        mask |= ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 < 1.0
    return mask


def _smooth(img, k=3):
    pad = k // 2
    p = np.pad(img, pad, mode="reflect")
    out = np.zeros_like(img)
    for dy in range(k):
        for dx in range(k):
            out += p[dy:dy + img.shape[0], dx:dx + img.shape[1]]
    return out / (k * k)


def make_tile(rng, size):
    mask = _blob_mask(rng, size)
    sediment = _smooth(rng.gamma(4.0, 0.25, (size, size)), 5)
    grass = rng.gamma(2.0, 0.9, (size, size))
    img = np.where(mask, grass, sediment)
    # far-range shadow: columns just right of a meadow are darker
    shadow = np.roll(mask, 2, axis=1) & ~mask
    img = img * np.where(shadow, 0.6, 1.0)
    # range-dependent gain across the swath
    img = img * np.linspace(1.2, 0.8, size)[None, :]
    img = np.log1p(img)
    return img.astype(np.float32), mask.astype(np.int64)


class SonarTiles(Dataset):
    def __init__(self, n, size, seed):
        rng = np.random.default_rng(seed)
        imgs, masks = zip(*(make_tile(rng, size) for _ in range(n)))
        self.x = torch.from_numpy(np.stack(imgs))[:, None]
        self.y = torch.from_numpy(np.stack(masks))
        self.x = (self.x - 0.55) / 0.35

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
