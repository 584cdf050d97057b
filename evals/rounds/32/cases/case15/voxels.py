import numpy as np

D, H, W = 8, 12, 12
# unit direction the feathers grow towards, per wind sector
SECTORS = [(0, 1), (1, 0), (0, -1), (-1, 0)]


def make_scans(n, seed):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:H, 0:W]
    cy, cx = (H - 1) / 2, (W - 1) / 2
    scans = np.zeros((n, D, H, W), dtype=np.float32)
    labels = rng.integers(0, 4, n)
    for k in range(n):
        dy, dx = SECTORS[labels[k]]
        length = rng.uniform(2.0, 4.5)
        for d in range(D):
            grow = length * (0.6 + 0.4 * np.sin(np.pi * (d + rng.uniform(-1, 1)) / D))
            py, px = cy + dy * grow, cx + dx * grow
            blob = np.exp(-((yy - py) ** 2 + (xx - px) ** 2) / (2 * 1.3 ** 2))
            core = np.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * 1.6 ** 2))
            scans[k, d] = blob + core + rng.normal(0, 0.35, (H, W))
    return scans, labels.astype(np.int64)
