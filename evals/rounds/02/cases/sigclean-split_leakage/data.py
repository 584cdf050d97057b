import numpy as np
import torch


def make_traces(n, length=128, seed=0):
    """Sum of 1-3 sinusoids plus up to two gaussian bumps, roughly unit scale."""
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 1.0, length, dtype=np.float64)
    out = np.zeros((n, length), dtype=np.float64)
    for i in range(n):
        for _ in range(rng.integers(1, 4)):
            f = rng.uniform(1.0, 12.0)
            a = rng.uniform(0.2, 0.8)
            out[i] += a * np.sin(2 * np.pi * f * t + rng.uniform(0, 2 * np.pi))
        for _ in range(rng.integers(0, 3)):
            c = rng.uniform(0.1, 0.9)
            w = rng.uniform(0.01, 0.04)
            out[i] += rng.uniform(-1.0, 1.0) * np.exp(-0.5 * ((t - c) / w) ** 2)
    out /= np.abs(out).max(axis=1, keepdims=True) + 1e-6
    # (N, 1, L): channel dimension for Conv1d
    return torch.from_numpy(out).float().unsqueeze(1)
