"""Render synthetic reef tiles (channels-last) with bleaching masks."""
import numpy as np


def _blob(h, w, rng, r_min, r_max):
    cy, cx = rng.uniform(0, h), rng.uniform(0, w)
    ry, rx = rng.uniform(r_min, r_max, 2)
    yy, xx = np.mgrid[0:h, 0:w]
    return ((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 < 1.0


def render(n, size=24, seed=0):
    rng = np.random.default_rng(seed)
    tiles = np.zeros((n, size, size, 3), dtype=np.float32)
    masks = np.zeros((n, size, size), dtype=np.float32)
    yy, xx = np.mgrid[0:size, 0:size]
    for i in range(n):
        # healthy coral background: brown/olive with texture
        base = np.array([0.42, 0.33, 0.18]) + rng.normal(0, 0.04, 3)
        img = base[None, None, :] + rng.normal(0, 0.05, (size, size, 3))
        # sand patches: bright, warm, rippled
        for _ in range(rng.integers(0, 3)):
            m = _blob(size, size, rng, 3, 8)
            ripple = 0.05 * np.sin(xx * 1.3 + rng.uniform(0, 6))[..., None]
            img[m] = (np.array([0.86, 0.78, 0.58]) + ripple)[m]
        # bleached coral: bright, neutral-to-blue
        bleached = np.zeros((size, size), dtype=bool)
        for _ in range(rng.integers(1, 4)):
            m = _blob(size, size, rng, 2, 6)
            bleached |= m
        img[bleached] = np.array([0.84, 0.87, 0.92]) + rng.normal(0, 0.03, (bleached.sum(), 3))
        img += rng.normal(0, 0.03, img.shape)
        tiles[i] = np.clip(img, 0, 1)
        masks[i] = bleached
    return tiles, masks
