import numpy as np

P = 16


def _patch(rng, flaw):
    yy, xx = np.mgrid[0:P, 0:P] / (P - 1)
    lift = rng.normal(0, 0.15) + 0.3 * np.sin(2 * np.pi * (xx * rng.uniform(0.5, 1.5) + rng.uniform()))
    img = lift + rng.normal(0, 0.25, (P, P))
    if flaw:
        cy, cx = rng.uniform(0.25, 0.75, 2)
        ang = rng.uniform(0, np.pi)
        u = (xx - cx) * np.cos(ang) + (yy - cy) * np.sin(ang)
        v = -(xx - cx) * np.sin(ang) + (yy - cy) * np.cos(ang)
        img += rng.uniform(0.8, 1.5) * np.exp(-(u / 0.18) ** 2 - (v / 0.05) ** 2)
    return img


def random_patches(n, seed=0, flaw_rate=0.2):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < flaw_rate).astype(np.float32)
    X = np.stack([_patch(rng, f) for f in y])[:, None].astype(np.float32)
    return X, y


def survey_run(n, seed=0):
    """A continuous run: flaws concentrate around a few worn sections of the line."""
    rng = np.random.default_rng(seed)
    pos = np.arange(n)
    worn = np.zeros(n, dtype=bool)
    for c in rng.choice(n, 5, replace=False):
        worn[max(0, c - 40):c + 40] = True
    y = (rng.random(n) < np.where(worn, 0.7, 0.04)).astype(np.float32)
    X = np.stack([_patch(rng, f) for f in y])[:, None].astype(np.float32)
    return X, y, pos
