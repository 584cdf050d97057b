import numpy as np

S = 14
CLASSES = ["porphyritic", "barred", "radial"]


def chondrule(kind, rng):
    g = np.stack(np.meshgrid(*[np.arange(S)] * 3, indexing="ij"), -1).astype(np.float32)
    c = S / 2 + rng.normal(0, 0.7, 3)
    r = rng.uniform(4.5, 6.5)
    d = g - c
    inside = (d ** 2).sum(-1) < r ** 2
    vol = rng.normal(0, 0.15, (S, S, S)).astype(np.float32)
    if kind == 0:
        for _ in range(rng.integers(6, 12)):
            p = c + rng.uniform(-r, r, 3) * 0.7
            vol += 1.2 * np.exp(-((g - p) ** 2).sum(-1) / 1.5)
    elif kind == 1:
        n = rng.normal(size=3); n /= np.linalg.norm(n)
        vol += 1.0 * (np.sin((d @ n) * rng.uniform(1.6, 2.2)) > 0.3)
    else:
        a = rng.normal(size=3); a /= np.linalg.norm(a)
        proj = d - (d @ a)[..., None] * a
        ang = np.arctan2(proj[..., 0], proj[..., 1] + 1e-6)
        vol += 1.0 * (np.sin(ang * rng.integers(5, 8)) > 0.4)
    vol = vol * inside + 0.8 * (np.abs(np.sqrt((d ** 2).sum(-1)) - r) < 0.8)   # rim
    return vol * rng.uniform(0.7, 1.3)


def make_split(n_per_class, seed):
    rng = np.random.default_rng(seed)
    X, y = [], []
    for k in range(len(CLASSES)):            # stored class by class, as the scans were catalogued
        for _ in range(n_per_class):
            X.append(chondrule(k, rng))
            y.append(k)
    return np.stack(X)[:, None].astype(np.float32), np.array(y)
