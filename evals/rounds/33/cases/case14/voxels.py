import numpy as np
import torch

REGIMES = ["dry", "wet", "graupel"]


def hailstone(kind, g, S=12):
    c = (S - 1) / 2 + g.normal(0, 0.6, 3)
    zz, yy, xx = np.meshgrid(*[np.arange(S)] * 3, indexing="ij")
    r = np.sqrt((zz - c[0]) ** 2 + (yy - c[1]) ** 2 + (xx - c[2]) ** 2)
    R = g.uniform(3.5, 5.5)
    v = (r < R).astype(np.float32) * 0.6
    if kind == 0:       # concentric clear/opaque shells
        v += 0.4 * (r < R) * (np.sin(r * g.uniform(2.4, 3.0)) > 0)
    elif kind == 1:     # spongy, noisy interior
        v += 0.5 * (r < R) * g.random((S, S, S))
    else:               # dense embryo + rime speckles
        v += 0.8 * (r < R * 0.45)
        v += 0.6 * (r < R) * (g.random((S, S, S)) < 0.08)
    v *= (0.7, 1.0, 1.4)[kind]         # bulk density differs by regime
    return v + g.normal(0, 0.1, v.shape).astype(np.float32)


def dataset(n_per, seed):
    g = np.random.default_rng(seed)
    X = np.stack([hailstone(k, g) for k in range(3) for _ in range(n_per)])[:, None]
    y = np.repeat(np.arange(3), n_per)
    return torch.tensor(X, dtype=torch.float32), torch.tensor(y)
