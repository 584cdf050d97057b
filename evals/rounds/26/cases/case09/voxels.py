import numpy as np

CLASSES = ["plain", "banded", "spherulitic", "snowflake", "vesicular"]
S = 16


def _grid():
    ax = np.arange(S) - (S - 1) / 2
    return np.meshgrid(ax, ax, ax, indexing="ij")


def cube(kind, rng):
    z, y, x = _grid()
    v = 1.0 + rng.normal(0, 0.35, (S, S, S))
    if kind == 1:     # flow bands along a random direction
        n = rng.normal(size=3); n /= np.linalg.norm(n)
        v += 0.45 * np.sin((n[0] * z + n[1] * y + n[2] * x) * rng.uniform(0.8, 1.4))
    elif kind == 2:   # a few bright spherulites
        for _ in range(rng.integers(2, 4)):
            c = rng.uniform(-5, 5, 3); r = rng.uniform(2, 3.5)
            v += 0.5 * (((z - c[0]) ** 2 + (y - c[1]) ** 2 + (x - c[2]) ** 2) < r * r)
    elif kind == 3:   # many small bright specks
        idx = rng.integers(0, S, (40, 3))
        v[idx[:, 0], idx[:, 1], idx[:, 2]] += 1.2
    elif kind == 4:   # dark bubbles
        for _ in range(rng.integers(4, 8)):
            c = rng.uniform(-6, 6, 3); r = rng.uniform(1.2, 2.2)
            v -= 0.5 * (((z - c[0]) ** 2 + (y - c[1]) ** 2 + (x - c[2]) ** 2) < r * r)
    return (v * rng.uniform(0.85, 1.15)).astype(np.float32)   # scanner gain


def make_split(n_per_class, seed):
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for k in range(len(CLASSES)):
        for _ in range(n_per_class):
            xs.append(cube(k, rng))
            ys.append(k)
    return np.stack(xs)[:, None], np.array(ys)
