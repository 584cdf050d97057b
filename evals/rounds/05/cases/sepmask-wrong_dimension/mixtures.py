import numpy as np
import torch

N_FREQ, N_FRAMES = 48, 32


def _hum(rng):
    f0 = rng.uniform(2.0, 5.0) + np.linspace(0, rng.uniform(-1, 1), N_FRAMES)
    freqs = np.arange(N_FREQ)[:, None]
    spec = np.zeros((N_FREQ, N_FRAMES))
    for k in range(1, 10):
        spec += (0.8 ** k) * np.exp(-0.5 * ((freqs - k * f0[None, :]) / 0.7) ** 2)
    return spec * rng.uniform(0.5, 1.5)


def _chirps(rng):
    spec = np.zeros((N_FREQ, N_FRAMES))
    freqs = np.arange(N_FREQ)
    t = 0
    while t < N_FRAMES:
        length = rng.integers(3, 7)
        start_f = rng.uniform(8, 30)
        for j in range(min(length, N_FRAMES - t)):
            fc = start_f + 3.0 * j
            spec[:, t + j] += np.exp(-0.5 * ((freqs - fc) / 1.5) ** 2)
        t += length + rng.integers(1, 5)
    return spec * rng.uniform(0.5, 1.5)


def make_set(n, seed):
    rng = np.random.default_rng(seed)
    src = np.stack([np.stack([_hum(rng), _chirps(rng)]) for _ in range(n)]).astype(np.float32)
    src += rng.exponential(0.01, size=src.shape).astype(np.float32)
    mix = src.sum(axis=1)
    return torch.from_numpy(mix), torch.from_numpy(src)     # (N, F, T), (N, 2, F, T)
