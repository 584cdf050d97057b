import numpy as np
import torch

N_BINS = 96


def strike_spectra(n, seed):
    rng = np.random.default_rng(seed)
    semis = rng.uniform(0, 24, n)
    f0 = 261.6 * 2 ** (semis / 12)
    bins = np.linspace(200, 4000, N_BINS)
    spec = np.zeros((n, N_BINS))
    for partial, amp in [(1.0, 1.0), (3.9, 0.5), (9.2, 0.25)]:  # xylophone bar overtones
        spec += amp * np.exp(-((bins[None] - partial * f0[:, None]) / 40.0) ** 2)
    spec += rng.normal(0, 0.05, spec.shape)
    return torch.tensor(spec, dtype=torch.float32), torch.tensor(semis, dtype=torch.float32)
