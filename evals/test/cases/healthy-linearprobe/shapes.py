"""12x12 grayscale shape images: unlabeled pool for pretraining + labeled sets."""
import numpy as np
import torch

SHAPES = ("square", "cross", "ring", "bar_h", "bar_v", "diag")
SIZE = 12


def _draw(shape, cy, cx, s, rng):
    yy, xx = np.mgrid[0:SIZE, 0:SIZE]
    dy, dx = yy - cy, xx - cx
    if shape == "square":
        m = (np.abs(dy) <= s) & (np.abs(dx) <= s)
    elif shape == "cross":
        m = ((np.abs(dy) <= 0.6) & (np.abs(dx) <= s + 1)) | ((np.abs(dx) <= 0.6) & (np.abs(dy) <= s + 1))
    elif shape == "ring":
        r = np.hypot(dy, dx)
        m = (r >= s - 0.3) & (r <= s + 0.9)
    elif shape == "bar_h":
        m = (np.abs(dy) <= 0.8) & (np.abs(dx) <= s + 2)
    elif shape == "bar_v":
        m = (np.abs(dx) <= 0.8) & (np.abs(dy) <= s + 2)
    else:
        m = (np.abs(dy - dx) <= 0.8) & (np.abs(dy) <= s + 1)
    return m.astype(np.float32)


def make_images(n, seed, noise=0.2):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, len(SHAPES), size=n)
    imgs = np.empty((n, 1, SIZE, SIZE), dtype=np.float32)
    for i, k in enumerate(labels):
        cy, cx = rng.uniform(4, 8, size=2)
        s = rng.uniform(1.5, 3.0)
        img = _draw(SHAPES[k], cy, cx, s, rng) * rng.uniform(0.6, 1.0)
        imgs[i, 0] = img + rng.normal(0, noise, (SIZE, SIZE))
    return torch.from_numpy(imgs), torch.from_numpy(labels.astype(np.int64))
