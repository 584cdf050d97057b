"""Synthetic overhead thermal frames."""
import numpy as np

# every split gets its own stream of random frames
SPLIT_OFFSETS = {"train": 0, "valid": 10_000, "test": 20_000}


def render(rng, size, n_people, n_lanterns):
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    img = rng.normal(0.0, 0.15, (size, size)).astype(np.float32)
    river = rng.integers(0, size - 4)
    img[river:river + 3] -= 0.6
    for _ in range(n_people):
        cy, cx = rng.uniform(1, size - 1, 2)
        s = rng.uniform(0.9, 1.4)
        img += np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * s * s)) * rng.uniform(0.7, 1.1)
    for _ in range(n_lanterns):
        cy, cx = rng.integers(0, size, 2)
        img[cy, cx] += rng.uniform(2.0, 3.0)
    return img


def build_split(name, n, cfg):
    rng = np.random.default_rng(cfg["seed"] + SPLIT_OFFSETS.get(name, 0))
    X = np.empty((n, 1, cfg["frame"], cfg["frame"]), np.float32)
    y = np.empty(n, np.float32)
    for i in range(n):
        k = int(rng.integers(0, cfg["max_people"] + 1))
        X[i, 0] = render(rng, cfg["frame"], k, int(rng.integers(0, 6)))
        # volunteers miss or double-count a few people in busy frames
        y[i] = max(0.0, k + rng.normal(0, cfg["annotator_sd"] * (0.3 + k / cfg["max_people"])))
    return X, y
