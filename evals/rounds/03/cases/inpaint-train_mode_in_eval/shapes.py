"""Procedural 16x16 grayscale scenes: a tilted gradient background plus a few
flat-shaded rectangles and discs. Generated once from a seed; no files needed."""
import numpy as np

SIZE = 16


def render_scene(rng):
    yy, xx = np.mgrid[0:SIZE, 0:SIZE] / (SIZE - 1)
    a, b, c = rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), rng.uniform(0.3, 0.7)
    img = c + a * (xx - 0.5) + b * (yy - 0.5)
    for _ in range(rng.integers(1, 4)):
        shade = rng.uniform(0.0, 1.0)
        if rng.random() < 0.5:
            h, w = rng.integers(3, 9, size=2)
            r0, c0 = rng.integers(0, SIZE - h), rng.integers(0, SIZE - w)
            img[r0:r0 + h, c0:c0 + w] = shade
        else:
            cy, cx = rng.uniform(3, SIZE - 3, size=2)
            rad = rng.uniform(2, 5)
            img[(yy * (SIZE - 1) - cy) ** 2 + (xx * (SIZE - 1) - cx) ** 2 <= rad ** 2] = shade
    return np.clip(img, 0.0, 1.0).astype(np.float32)


def random_hole(rng):
    """1 inside the hole (pixels to fill in), 0 where the pixel is known."""
    m = np.zeros((SIZE, SIZE), dtype=np.float32)
    h, w = rng.integers(3, 7, size=2)
    r0, c0 = rng.integers(0, SIZE - h + 1), rng.integers(0, SIZE - w + 1)
    m[r0:r0 + h, c0:c0 + w] = 1.0
    return m


def make_split(n, seed):
    rng = np.random.default_rng(seed)
    images = np.stack([render_scene(rng) for _ in range(n)])
    holes = np.stack([random_hole(rng) for _ in range(n)])
    return images[:, None], holes[:, None]          # (n, 1, 16, 16) each
