import numpy as np


def render(n, size=20, max_cells=12, seed=0):
    """Gaussian blobs of random radius/brightness on a noisy, uneven background."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    imgs = np.zeros((n, 1, size, size), dtype=np.float32)
    counts = rng.integers(0, max_cells + 1, size=n)
    for i in range(n):
        gx, gy = rng.normal(0, 0.02, size=2)
        img = 0.2 + gx * (xx - size / 2) + gy * (yy - size / 2)
        for _ in range(counts[i]):
            cy, cx = rng.uniform(2, size - 2, size=2)
            r = rng.uniform(0.9, 1.6)
            img = img + rng.uniform(0.6, 1.0) * np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * r * r))
        imgs[i, 0] = img + rng.normal(0, 0.05, size=(size, size))
    return imgs, counts.astype(np.float32)
