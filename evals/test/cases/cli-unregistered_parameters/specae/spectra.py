"""Simulated 64-bin absorbance spectra.

A spectrum is a sum of three Gaussian bands whose amplitudes, positions and
widths drift with the sample composition, plus a sloped baseline and noise.
"""
import numpy as np

N_BINS = 64


def simulate(n, seed, noise=0.02):
    rng = np.random.default_rng(seed)
    grid = np.linspace(0.0, 1.0, N_BINS)
    comp = rng.uniform(0.0, 1.0, size=(n, 4))
    centers = np.stack([0.2 + 0.1 * comp[:, 0], 0.5 + 0.08 * comp[:, 1], 0.78 - 0.1 * comp[:, 0]], axis=1)
    widths = np.stack([0.03 + 0.03 * comp[:, 2], np.full(n, 0.05), 0.04 + 0.02 * comp[:, 3]], axis=1)
    amps = np.stack([comp[:, 1], 0.5 + 0.5 * comp[:, 2], 1.0 - comp[:, 3]], axis=1)
    bands = amps[:, :, None] * np.exp(-0.5 * ((grid[None, None, :] - centers[:, :, None]) / widths[:, :, None]) ** 2)
    baseline = 0.1 + 0.15 * comp[:, 3:4] * grid[None, :]
    x = bands.sum(axis=1) + baseline + rng.normal(0.0, noise, size=(n, N_BINS))
    return x.astype(np.float32)
