"""Synthetic multispectral tiles of a mangrove coast.

Every sample is a dict:
    image : float32 [3, H, W]   NIR, red, green reflectance (0..1)
    target: float32 [1, H, W]   1 = mangrove canopy
    mask  : float32 [1, H, W]   1 where the pixel is nodata (outside swath / cloud)
"""
import numpy as np
import torch
from torch.utils.data import Dataset


def _blobs(h, w, rng, n):
    yy, xx = np.mgrid[0:h, 0:w]
    field = np.zeros((h, w))
    for _ in range(n):
        cy, cx = rng.uniform(0, h), rng.uniform(0, w)
        r = rng.uniform(3, 9)
        field += np.exp(-(((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * r * r)))
    return field


def make_tile(rng, size=32):
    canopy = (_blobs(size, size, rng, rng.integers(1, 5)) > 0.5).astype(np.float32)
    water = (_blobs(size, size, rng, 2) > 0.6) & (canopy == 0)
    nir = np.where(canopy > 0, 0.45, 0.22) + rng.normal(0, 0.06, (size, size))
    red = np.where(canopy > 0, 0.05, 0.12) + rng.normal(0, 0.03, (size, size))
    green = np.where(canopy > 0, 0.09, 0.10) + rng.normal(0, 0.03, (size, size))
    nir = np.where(water, 0.03, nir)
    img = np.stack([nir, red, green]).clip(0, 1).astype(np.float32)

    nodata = np.zeros((size, size), dtype=np.float32)
    if rng.random() < 0.7:
        # swath edge: a slanted band of missing columns
        edge = rng.integers(8, 24)
        slope = rng.uniform(-0.5, 0.5)
        cols = np.arange(size)[None, :]
        rows = np.arange(size)[:, None]
        nodata[cols > edge + slope * (rows - size / 2)] = 1.0
    if rng.random() < 0.4:
        nodata = np.maximum(nodata, (_blobs(size, size, rng, 1) > 0.4).astype(np.float32))
    # nodata pixels carry a fill value, and the reference map is blank there
    img = img * (1 - nodata) + nodata * 1.0
    canopy_ref = canopy * (1 - nodata)
    return img, canopy_ref[None], nodata[None]


class CoastTiles(Dataset):
    def __init__(self, n, seed):
        rng = np.random.default_rng(seed)
        imgs, tgts, masks = zip(*(make_tile(rng) for _ in range(n)))
        self.image = torch.from_numpy(np.stack(imgs))
        self.target = torch.from_numpy(np.stack(tgts))
        self.mask = torch.from_numpy(np.stack(masks))

    def __len__(self):
        return len(self.image)

    def __getitem__(self, i):
        return {"image": self.image[i], "target": self.target[i], "mask": self.mask[i]}
