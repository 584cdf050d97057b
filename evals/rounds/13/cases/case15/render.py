"""Synthetic galaxy cutouts."""
import numpy as np

CLASSES = ["elliptical", "edge_on", "spiral", "merger"]
SIZE = 24


def _grid():
    c = (SIZE - 1) / 2.0
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    return xx - c, yy - c


def render(kind, rng):
    x, y = _grid()
    theta = rng.uniform(0, np.pi)
    ct, st = np.cos(theta), np.sin(theta)
    xr, yr = ct * x + st * y, -st * x + ct * y
    if kind == 0:  # elliptical: smooth, mildly flattened
        q = rng.uniform(0.7, 1.0)
        s = rng.uniform(2.5, 4.0)
        img = np.exp(-(xr ** 2 + (yr / q) ** 2) / (2 * s ** 2))
    elif kind == 1:  # thin disk seen edge-on
        s = rng.uniform(4.0, 6.0)
        img = np.exp(-(xr ** 2) / (2 * s ** 2) - (yr ** 2) / (2 * rng.uniform(0.6, 1.1) ** 2))
    elif kind == 2:  # two logarithmic arms plus a bulge
        r = np.sqrt(x ** 2 + y ** 2) + 1e-3
        phi = np.arctan2(y, x)
        k = rng.uniform(0.9, 1.4)
        arms = np.cos(2 * (phi - k * np.log(r)) + theta) ** 2
        img = 0.6 * arms * np.exp(-r / 5.0) + np.exp(-(r ** 2) / 3.0)
    else:  # merger: two offset blobs
        d = rng.uniform(3.0, 5.5)
        s1, s2 = rng.uniform(1.5, 2.5, size=2)
        img = np.exp(-((xr - d) ** 2 + yr ** 2) / (2 * s1 ** 2))
        img += rng.uniform(0.5, 1.0) * np.exp(-((xr + d) ** 2 + yr ** 2) / (2 * s2 ** 2))
    img = img / img.max() * rng.uniform(0.6, 1.2)
    img = img + rng.normal(0, 0.12, size=img.shape)
    return img.astype(np.float32)


def make_catalog(n, seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, len(CLASSES), size=n)
    images = np.stack([render(int(k), rng) for k in labels])
    return images[:, None], labels.astype(np.int64)
