import numpy as np

IGNORE = 255


def _blob(h, w, rng, cy=None, cx=None, r=None):
    yy, xx = np.mgrid[0:h, 0:w]
    cy = rng.uniform(4, h - 4) if cy is None else cy
    cx = rng.uniform(4, w - 4) if cx is None else cx
    r = rng.uniform(4, 8) if r is None else r
    a = rng.uniform(0.6, 1.4)
    d = np.sqrt(((yy - cy) / a) ** 2 + ((xx - cx) * a) ** 2)
    return d, cy, cx, r


def tile(rng, size=32):
    img = np.empty((3, size, size), np.float32)
    bg = rng.uniform([0.35, 0.25, 0.15], [0.6, 0.45, 0.3])        # soil / pot
    img[:] = bg[:, None, None]
    label = np.zeros((size, size), np.int64)
    for _ in range(rng.integers(2, 5)):
        d, cy, cx, r = _blob(size, size, rng)
        leaf = d < r
        green = rng.uniform([0.1, 0.45, 0.1], [0.25, 0.7, 0.25])
        img[:, leaf] = green[:, None]
        label[leaf] = 1
        label[(d >= r - 0.7) & (d < r + 0.7)] = IGNORE
        if rng.random() < 0.6:
            d2, *_ = _blob(size, size, rng, cy + rng.normal(0, 2), cx + rng.normal(0, 2), rng.uniform(1.5, 3.5))
            spot = (d2 < 2.5) & leaf
            img[:, spot] = rng.uniform([0.5, 0.4, 0.05], [0.7, 0.55, 0.2])[:, None]
            label[spot] = 2
    img += rng.normal(0, 0.04, img.shape).astype(np.float32)
    return img, label


def make(n, seed):
    rng = np.random.default_rng(seed)
    pairs = [tile(rng) for _ in range(n)]
    return np.stack([p[0] for p in pairs]), np.stack([p[1] for p in pairs])
