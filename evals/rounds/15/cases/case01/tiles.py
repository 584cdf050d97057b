import numpy as np

SIZE = 24


def _blobs(rng, n, size, r_lo, r_hi):
    yy, xx = np.mgrid[0:size, 0:size]
    m = np.zeros((size, size), bool)
    for _ in range(n):
        cy, cx = rng.uniform(0, size, 2)
        ry, rx = rng.uniform(r_lo, r_hi, 2)
        m |= ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 < 1
    return m


def make_tiles(n, seed):
    """Returns bands (n,4,S,S) float32, kelp (n,S,S) float32, cloud (n,S,S) bool."""
    rng = np.random.default_rng(seed)
    bands = np.zeros((n, 4, SIZE, SIZE), np.float32)
    kelp = np.zeros((n, SIZE, SIZE), np.float32)
    cloud = np.zeros((n, SIZE, SIZE), bool)
    for i in range(n):
        land = _blobs(rng, rng.integers(0, 2), SIZE, 4, 10)
        k = _blobs(rng, rng.integers(0, 5), SIZE, 1.5, 4) & ~land
        c = _blobs(rng, rng.integers(0, 3), SIZE, 3, 9)
        water = np.array([0.06, 0.08, 0.04, 0.02])
        canopy = np.array([0.05, 0.07, 0.05, 0.16])
        soil = np.array([0.12, 0.15, 0.18, 0.30])
        img = water[:, None, None] * np.ones((4, SIZE, SIZE))
        img = np.where(k[None], canopy[:, None, None], img)
        img = np.where(land[None], soil[:, None, None], img)
        img += rng.normal(0, 0.02, img.shape)
        img = np.where(c[None], 0.5 + rng.normal(0, 0.05, img.shape), img)
        bands[i] = img
        kelp[i] = np.where(c, 0.0, k)   # no label under cloud
        cloud[i] = c
    return bands, kelp, cloud
