import numpy as np

CLASSES = ["low_density", "medium_density", "high_density"]
_WALL_ATTENUATION = [0.55, 0.8, 1.05]


def _walls(coord, period, phase, thickness):
    return (np.mod(coord + phase, period) < thickness).astype(np.float32)


def make_volume(cls, rng, size=12):
    g = np.arange(size, dtype=np.float32)
    zz, yy, xx = np.meshgrid(g, g, g, indexing="ij")
    p = rng.uniform(3.5, 6.0, 3)          # prismatic cells, a bit anisotropic
    ph = rng.uniform(0, 10, 3)
    vol = np.maximum.reduce([_walls(zz, p[0], ph[0], 1.0), _walls(yy, p[1], ph[1], 1.0),
                             _walls(xx, p[2], ph[2], 1.0)])
    att = _WALL_ATTENUATION[cls] * rng.uniform(0.93, 1.07)
    vol = att * (vol + 0.1 + rng.normal(0, 0.15, vol.shape))
    return vol.astype(np.float32)


def make_split(n_per_class, seed):
    """Volumes come out grouped by class, like the scanner export."""
    rng = np.random.default_rng(seed)
    X, y = [], []
    for c in range(len(CLASSES)):
        for _ in range(n_per_class):
            X.append(make_volume(c, rng))
            y.append(c)
    return np.stack(X)[:, None], np.array(y, dtype=np.int64)
