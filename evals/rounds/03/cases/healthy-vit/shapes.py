"""16x16 grayscale images of six outline shapes at random position and size, noisy background."""
import numpy as np

SIZE = 16
CLASSES = ["disc", "ring", "square", "frame", "cross", "triangle"]


def draw(kind, rng):
    yy, xx = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32)
    r = rng.uniform(3.0, 6.0)
    cy, cx = rng.uniform(r, SIZE - r, size=2)
    dy, dx = yy - cy, xx - cx
    if kind == 0:
        m = dy ** 2 + dx ** 2 <= r ** 2
    elif kind == 1:
        d = np.sqrt(dy ** 2 + dx ** 2); m = (d <= r) & (d >= r - 1.6)
    elif kind == 2:
        m = (np.abs(dy) <= r * 0.8) & (np.abs(dx) <= r * 0.8)
    elif kind == 3:
        a = np.maximum(np.abs(dy), np.abs(dx)); m = (a <= r * 0.8) & (a >= r * 0.8 - 1.6)
    elif kind == 4:
        m = ((np.abs(dy) <= 1) & (np.abs(dx) <= r)) | ((np.abs(dx) <= 1) & (np.abs(dy) <= r))
    else:
        m = (dy <= r * 0.7) & (dy >= -r * 0.7) & (np.abs(dx) <= (dy + r * 0.7) * 0.6)
    img = m.astype(np.float32) * rng.uniform(0.6, 1.0)
    return img + rng.normal(0, 0.15, img.shape).astype(np.float32)


def make_images(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(CLASSES), n)
    x = np.stack([draw(k, rng) for k in y])[:, None]
    return x.astype(np.float32), y.astype(np.int64)
