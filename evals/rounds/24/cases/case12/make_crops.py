import os

import numpy as np

S = 16
POROSITY = {0: (0.05, 0.15), 1: (0.18, 0.30), 2: (0.33, 0.48)}


def crop(rng, target):
    zz, yy, xx = np.mgrid[0:S, 0:S, 0:S]
    solid = np.ones((S, S, S), bool)
    while 1 - solid.mean() < target:
        c = rng.uniform(0, S, 3)
        r = rng.uniform(1.2, 3.2)
        solid &= (zz - c[0]) ** 2 + (yy - c[1]) ** 2 + (xx - c[2]) ** 2 > r * r
    vol = np.where(solid, 1.0, 0.15) + rng.normal(0, 0.25, solid.shape)
    return vol.astype(np.float32)


def build(n_per_class, rng):
    X, y = [], []
    for k, (lo, hi) in POROSITY.items():
        for _ in range(n_per_class):
            X.append(crop(rng, rng.uniform(lo, hi)))
            y.append(k)
    return np.stack(X), np.array(y)


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    os.makedirs("crops", exist_ok=True)
    Xtr, ytr = build(200, rng)
    Xva, yva = build(80, rng)
    np.savez_compressed("crops/train.npz", X=Xtr, y=ytr)
    np.savez_compressed("crops/val.npz", X=Xva, y=yva)
    print("train", Xtr.shape, "val", Xva.shape)
