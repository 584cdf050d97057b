"""Toy photometric survey: magnitudes in ugriz for stars, galaxies and quasars."""
import numpy as np

CLASSES = ["star", "galaxy", "qso"]


def _colours(kind, n, rng):
    if kind == 0:            # stars: a 1-D temperature sequence
        t = rng.uniform(0, 1, n)
        c = np.stack([2.5 - 1.8 * t, 1.2 - 1.0 * t, 0.5 - 0.45 * t, 0.3 - 0.3 * t], 1)
        return c + rng.normal(0, 0.08, c.shape)
    if kind == 1:            # galaxies: redder, broad, redshift moves the break
        z = rng.gamma(2.0, 0.12, n)
        c = np.stack([1.8 + 0.8 * z, 0.7 + 1.5 * z, 0.35 + 0.8 * z, 0.25 + 0.3 * z], 1)
        return c + rng.normal(0, 0.15, c.shape)
    z = rng.uniform(0.3, 3.0, n)   # quasars: blue until Lyman-alpha leaves u
    c = np.stack([0.2 + 1.4 * np.clip(z - 2.2, 0, None) + 0.1 * np.sin(3 * z),
                  0.15 + 0.2 * np.sin(2 * z), 0.1 + 0.15 * np.cos(2.5 * z), 0.1 + 0.1 * np.sin(z)], 1)
    return c + rng.normal(0, 0.12, c.shape)


def survey(n, rng):
    y = rng.choice(3, size=n, p=[0.4, 0.4, 0.2])
    cols = np.zeros((n, 4))
    for k in range(3):
        m = y == k
        cols[m] = _colours(k, m.sum(), rng)
    r = rng.uniform(16, 21.5, n)
    mags = np.stack([r + cols[:, 1] + cols[:, 0], r + cols[:, 1], r, r - cols[:, 2], r - cols[:, 2] - cols[:, 3]], 1)
    err = 0.02 * np.exp((mags - 18) / 1.5)
    mags = mags + rng.normal(size=mags.shape) * err
    feats = np.concatenate([mags, np.diff(mags, axis=1), np.log(err)], axis=1)
    return feats.astype(np.float32), y.astype(np.int64)
