import numpy as np

GLYPH_H, GLYPH_W = 8, 6


def glyph_bank(seed=0):
    """One fixed random 8x6 bitmap per digit, smoothed a little so strokes connect."""
    rng = np.random.default_rng(seed)
    g = (rng.random((10, GLYPH_H, GLYPH_W)) < 0.45).astype(np.float32)
    g[:, :, 1:] = np.maximum(g[:, :, 1:], 0.5 * g[:, :, :-1])
    return g


def render(digits, bank, rng, width=40):
    strip = np.zeros((GLYPH_H, width), dtype=np.float32)
    x = rng.integers(0, 4)
    for d in digits:
        strip[:, x:x + GLYPH_W] = np.maximum(strip[:, x:x + GLYPH_W], bank[d] * rng.uniform(0.7, 1.0))
        x += GLYPH_W + rng.integers(1, 4)
    strip += 0.25 * rng.random(strip.shape) * (rng.random(strip.shape) < 0.3)
    strip += rng.normal(0, 0.1, strip.shape)
    return strip


def make_split(n, n_chars, seed, bank):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 10, size=(n, n_chars))
    images = np.stack([render(lab, bank, rng) for lab in labels])
    return images, labels
