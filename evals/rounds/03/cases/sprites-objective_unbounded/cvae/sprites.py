"""12x12 binary sprites in eight classes, with random position, size and stroke."""
import numpy as np

S = 12
CLASS_NAMES = ["hbar", "vbar", "diag", "anti", "plus", "box", "ell", "tee"]


def draw(kind, rng):
    img = np.zeros((S, S), dtype=np.float32)
    n = rng.integers(6, 11)                  # glyph extent
    r, c = rng.integers(0, S - n + 1, size=2)
    w = rng.integers(1, 3)                   # stroke width
    m = n // 2
    if kind == 0:
        img[r + m:r + m + w, c:c + n] = 1
    elif kind == 1:
        img[r:r + n, c + m:c + m + w] = 1
    elif kind == 2:
        for i in range(n):
            img[r + i, c + i:c + i + w] = 1
    elif kind == 3:
        for i in range(n):
            img[r + i, c + n - 1 - i:c + n - 1 - i + w] = 1
    elif kind == 4:
        img[r + m:r + m + w, c:c + n] = 1
        img[r:r + n, c + m:c + m + w] = 1
    elif kind == 5:
        img[r:r + n, c:c + n] = 1
        img[r + w:r + n - w, c + w:c + n - w] = 0
    elif kind == 6:
        img[r:r + n, c:c + w] = 1
        img[r + n - w:r + n, c:c + n] = 1
    else:
        img[r:r + w, c:c + n] = 1
        img[r:r + n, c + m:c + m + w] = 1
    return img[:S, :S]


def make_sprites(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(CLASS_NAMES), size=n)
    x = np.stack([draw(k, rng) for k in y]).reshape(n, S * S)
    return x, y
