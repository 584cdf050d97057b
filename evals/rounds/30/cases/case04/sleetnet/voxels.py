import numpy as np
import torch
from torch.utils.data import TensorDataset

KINDS = ["sleet_pellet", "graupel", "hail_embryo"]
G = 12


def particle(kind, rng):
    z, y, x = np.mgrid[0:G, 0:G, 0:G] - (G - 1) / 2 + rng.normal(0, 0.7, 3)[:, None, None, None]
    r = rng.uniform(3.0, 4.5)
    if kind == 0:  # smooth, nearly spherical, solid
        v = (x ** 2 + y ** 2 + z ** 2 < r ** 2).astype(np.float32)
    elif kind == 1:  # rimed: rough surface, lower density
        v = (x ** 2 + y ** 2 + z ** 2 < r ** 2).astype(np.float32) * (rng.random((G, G, G)) < 0.55)
    else:  # layered core: dense shell + hollow centre
        d = x ** 2 + y ** 2 + z ** 2
        v = ((d < r ** 2) & (d > (0.6 * r) ** 2)).astype(np.float32)
    return v + 0.15 * rng.standard_normal(v.shape).astype(np.float32)


def make_split(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=n)
    x = np.stack([particle(int(k), rng) for k in y])[:, None]
    return TensorDataset(torch.from_numpy(x.astype(np.float32)), torch.from_numpy(y))
