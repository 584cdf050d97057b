"""A synthetic 2-D scalar field sampled on a 64x64 grid (think: a height map)."""
import numpy as np

RES = 64


def height_map(seed=3):
    rng = np.random.default_rng(seed)
    ax = np.linspace(-1, 1, RES)
    xx, yy = np.meshgrid(ax, ax, indexing="xy")
    z = np.zeros_like(xx)
    for _ in range(6):                                   # hills and basins
        cx, cy = rng.uniform(-0.8, 0.8, size=2)
        s = rng.uniform(0.15, 0.4)
        z += rng.uniform(-1, 1) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * s ** 2))
    z += 0.3 * np.sin(3 * xx + 2 * yy) * np.cos(2 * xx - 3 * yy)    # ripples
    z = (z - z.mean()) / z.std()
    coords = np.stack([xx.ravel(), yy.ravel()], axis=1).astype(np.float32)
    return coords, z.ravel().astype(np.float32)


def split(n, frac_train, seed):
    rng = np.random.default_rng(seed)
    perm = rng.permutation(n)
    k = int(frac_train * n)
    return perm[:k], perm[k:]
