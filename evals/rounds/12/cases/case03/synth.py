"""Synthetic bitewing-like radiographs: teeth are soft bright columns, fillings are
small very bright blobs inside some teeth. Task: segment the fillings."""
import numpy as np


def _ellipse(h, w, cy, cx, ry, rx):
    yy, xx = np.mgrid[0:h, 0:w]
    return ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 <= 1.0


def _blur(img):
    k = np.array([1, 4, 6, 4, 1], dtype=np.float32) / 16
    img = np.apply_along_axis(lambda r: np.convolve(r, k, mode="same"), 0, img)
    return np.apply_along_axis(lambda r: np.convolve(r, k, mode="same"), 1, img)


def make_dataset(n, size=32, p_empty=0.4, seed=0):
    rng = np.random.default_rng(seed)
    imgs = np.zeros((n, 1, size, size), np.float32)
    masks = np.zeros((n, 1, size, size), np.float32)
    for i in range(n):
        img = rng.normal(0.1, 0.03, (size, size)).astype(np.float32)
        n_teeth = rng.integers(3, 5)
        xs = np.linspace(5, size - 5, n_teeth) + rng.normal(0, 1, n_teeth)
        m = np.zeros((size, size), bool)
        has_fill = rng.random() > p_empty
        filled = rng.choice(n_teeth, size=rng.integers(1, 3), replace=False) if has_fill else []
        for k, cx in enumerate(xs):
            cy = size / 2 + rng.normal(0, 2)
            tooth = _ellipse(size, size, cy, cx, rng.uniform(9, 13), rng.uniform(3, 4.5))
            img[tooth] += rng.uniform(0.35, 0.5)
            if k in filled:
                m |= _ellipse(size, size, cy + rng.normal(0, 4), cx + rng.normal(0, 1),
                              rng.uniform(1.5, 3), rng.uniform(1.5, 2.5)) & tooth
        img[m] += 0.35
        img = _blur(img) + rng.normal(0, 0.08, (size, size))
        imgs[i, 0] = img
        masks[i, 0] = m
    return imgs, masks
