import numpy as np
import torch


def squeeze_traces(n, seed, T=64):
    g = np.random.default_rng(seed)
    t = np.linspace(0, 1, T)
    peak = g.uniform(0.6, 1.4, (n, 1))
    leak = g.uniform(0.0, 3.0, (n, 1)) * (g.random((n, 1)) < 0.5)
    rise = g.uniform(0.05, 0.15, (n, 1))
    hiss = g.uniform(10, 20, (n, 1))
    p = peak * (1 - np.exp(-t / rise)) * np.exp(-leak * t)
    p += 0.05 * leak * np.sin(2 * np.pi * hiss * t)
    p += g.normal(0, 0.02, (n, T))
    return torch.tensor(p, dtype=torch.float32), torch.tensor(leak[:, 0] > 0)
