import numpy as np


def render(n, size=20, pore_rate=0.2, seed=0):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    X = np.zeros((n, 1, size, size), dtype=np.float32)
    y = (rng.random(n) < pore_rate).astype(np.float32)
    for i in range(n):
        centre = size / 2 + rng.normal(0, 1.5)
        width = rng.uniform(5, 8)
        bead = 0.8 * np.exp(-((xx - centre) / width) ** 2)          # bead is brighter (denser)
        img = 0.2 + bead + rng.normal(0, 0.06, (size, size))
        if rng.random() < 0.3:                                      # undercut line (not a defect)
            img[:, int(np.clip(centre - width, 0, size - 1))] -= 0.2
        if y[i]:
            for _ in range(rng.integers(1, 4)):
                py, px = rng.uniform(3, size - 3), centre + rng.normal(0, width / 3)
                r = rng.uniform(0.8, 1.8)
                img -= 0.35 * np.exp(-(((yy - py) ** 2 + (xx - px) ** 2) / r ** 2))
        X[i, 0] = img
    return X, y
