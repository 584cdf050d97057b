import numpy as np
import torch

N_CLASSES = 8


def _pattern(cls, rng, size=12):
    yy, xx = np.mgrid[0:size, 0:size]
    ox, oy = rng.integers(0, 6, size=2)
    xx, yy = xx + ox, yy + oy
    if cls == 0:   return ((xx + yy) % 4 < 2).astype(float)              # twill
    if cls == 1:   return ((xx - yy) % 4 < 2).astype(float)              # reverse twill
    if cls == 2:   return ((xx % 2) ^ (yy % 2)).astype(float)            # plain weave
    if cls == 3:   return ((xx // 2 + yy // 2) % 2).astype(float)        # basket
    if cls == 4:   return (xx % 3 == 0).astype(float)                    # warp rib
    if cls == 5:   return (yy % 3 == 0).astype(float)                    # weft rib
    if cls == 6:   return (((xx + 2 * yy) % 5) == 0).astype(float)       # satin
    return ((np.abs((xx % 6) - 3) + np.abs((yy % 6) - 3)) < 2).astype(float)  # diamond


def make_split(n_per_class, seed):
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for c in range(N_CLASSES):
        for _ in range(n_per_class):
            img = _pattern(c, rng) * rng.uniform(0.4, 1.0) + rng.normal(0, 0.45, (12, 12))
            xs.append(img)
            ys.append(c)
    x = torch.tensor(np.stack(xs), dtype=torch.float32).unsqueeze(1)
    return x, torch.tensor(ys)
