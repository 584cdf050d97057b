import numpy as np


def make_tile(rng, size, nodata):
    img = rng.gamma(2.0, 0.15, (size, size)).astype(np.float32)      # speckle
    lbl = np.zeros((size, size), np.uint8)
    # rock outcrops: irregular bright blobs
    for _ in range(rng.integers(0, 3)):
        cy, cx = rng.integers(4, size - 4, 2)
        r = rng.uniform(2, 4)
        yy, xx = np.ogrid[:size, :size]
        blob = ((yy - cy) ** 2 + (xx - cx) ** 2 * rng.uniform(0.6, 1.6)) < r * r
        img[blob] += rng.gamma(3.0, 0.25, blob.sum())
        lbl[blob] = 2
    # wreck: straight bright hull with a dark shadow down-range
    if rng.random() < 0.7:
        y0 = rng.integers(3, size - 8)
        x0 = rng.integers(2, size - 14)
        L, W = rng.integers(8, 13), rng.integers(2, 4)
        img[y0:y0 + W, x0:x0 + L] = 1.6 + rng.normal(0, 0.1, (W, L))
        img[y0 + W:y0 + W + 4, x0:x0 + L] *= 0.15
        lbl[y0:y0 + W, x0:x0 + L] = 1
    # nadir gap
    g = rng.integers(0, size - 3)
    img[:, g:g + 3] = 0.0
    lbl[:, g:g + 3] = nodata
    return img, lbl


def make_set(n, cfg, rng):
    X = np.empty((n, 1, cfg["tile"], cfg["tile"]), np.float32)
    Y = np.empty((n, cfg["tile"], cfg["tile"]), np.uint8)
    for i in range(n):
        X[i, 0], Y[i] = make_tile(rng, cfg["tile"], cfg["nodata_value"])
    return X, Y


def to_targets(Y, cfg):
    """uint8 label tiles -> int64 targets with the no-data value mapped to ignore_index."""
    t = Y.astype(np.int64)
    t[Y == cfg["nodata_value"]] = cfg["ignore_index"]
    return t
