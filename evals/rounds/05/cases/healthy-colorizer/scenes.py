import numpy as np
import torch

# object kind -> (a, b) chroma; lightness texture differs per kind
PALETTE = {"disc": (0.7, 0.5), "square": (-0.6, 0.4), "ring": (0.1, -0.7), "stripe": (-0.5, -0.5)}


def make_scenes(n, size=24, seed=0):
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    L = np.zeros((n, 1, size, size), np.float32)
    ab = np.zeros((n, 2, size, size), np.float32)
    kinds = list(PALETTE)
    for k in range(n):
        L[k, 0] = 0.5 + 0.05 * rng.normal(size=(size, size))
        for _ in range(rng.integers(2, 4)):
            kind = kinds[rng.integers(len(kinds))]
            cx, cy, r = rng.uniform(4, size - 4), rng.uniform(4, size - 4), rng.uniform(3, 6)
            d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2)
            if kind == "disc":
                m, tex = d < r, 0.8
            elif kind == "square":
                m, tex = (np.abs(xx - cx) < r) & (np.abs(yy - cy) < r), 0.3
            elif kind == "ring":
                m, tex = (d < r) & (d > r - 2), 0.9
            else:
                m = (np.abs(xx - cx) < r) & (np.abs(yy - cy) < r)
                tex = 0.6 + 0.3 * (np.sin(xx[m] * 1.5) > 0)
            L[k, 0][m] = tex
            ab[k, 0][m], ab[k, 1][m] = PALETTE[kind]
    return torch.from_numpy(L), torch.from_numpy(ab)
