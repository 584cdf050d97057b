import numpy as np


def make_tiles(n, rng, flip=0.03):
    x = np.zeros((n, 8, 8), dtype=np.float32)
    for k in range(n):
        if rng.random() < 0.5:
            r = rng.integers(0, 6); x[k, r:r + 2, :] = 1
        if rng.random() < 0.5:
            c = rng.integers(0, 6); x[k, :, c:c + 2] = 1
        if rng.random() < 0.5:
            corner = rng.integers(4)
            i, j = (corner // 2) * 5, (corner % 2) * 5
            x[k, i:i + 3, j:j + 3] = 1
        if rng.random() < 0.3:
            x[k, 2:6, 2:6] = (np.indices((4, 4)).sum(0) % 2)
    noise = rng.random(x.shape) < flip
    x = np.where(noise, 1 - x, x)
    return x.reshape(n, 64)
