import numpy as np

GRADES = ["normal", "osteopenia", "osteoporosis"]


def phantom(rng, grade, size):
    spacing = [4, 5, 6][grade] + rng.integers(0, 2)
    thick = [2.0, 1.4, 1.0][grade] + rng.normal(0, 0.12)
    zz, yy, xx = np.mgrid[0:size, 0:size, 0:size].astype(np.float32)
    off = rng.uniform(0, spacing, 3)
    # plates perpendicular to the load axis plus vertical rods
    plates = (np.abs(((zz + off[0]) % spacing) - spacing / 2) < thick / 2)
    rods = ((np.abs(((yy + off[1]) % spacing) - spacing / 2) < thick / 2)
            & (np.abs(((xx + off[2]) % spacing) - spacing / 2) < thick / 2))
    # bone loss breaks plates into fragments
    holes = rng.random((size, size, size)) < [0.05, 0.2, 0.4][grade]
    bone = (plates & ~holes) | rods
    calib = rng.uniform(0.6, 1.4)      # scanner drift
    vol = calib * bone.astype(np.float32) + rng.normal(0, 0.25, bone.shape)
    return vol.astype(np.float32)


def make_set(n, size, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = np.stack([phantom(rng, g, size) for g in y])[:, None]
    return X, y
