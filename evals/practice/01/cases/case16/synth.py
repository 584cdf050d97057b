"""Stiff-string pluck spectra.

f0 = 1/(2L) * sqrt(T / mu), mu from gauge (gut, density ~1300 kg/m^3).
Partials f_n = n f0 sqrt(1 + B n^2); spectrum on a log-frequency grid
between 40 Hz and 2.5 kHz.
"""
import numpy as np

F_LO, F_HI = 40.0, 2500.0


def log_grid(n_bins):
    return np.geomspace(F_LO, F_HI, n_bins)


def pluck(rng, n_bins):
    L = rng.uniform(0.55, 0.72)                     # m
    d = rng.uniform(0.45e-3, 1.4e-3)                # m, gauge
    mu = 1300 * np.pi * (d / 2) ** 2                # kg/m
    T = rng.uniform(25, 75)                          # N
    f0 = 1 / (2 * L) * np.sqrt(T / mu)
    B = rng.uniform(1e-5, 4e-4)
    grid = log_grid(n_bins)
    spec = np.zeros(n_bins)
    pos = rng.uniform(0.08, 0.2)                    # pluck position (fraction of L)
    for n in range(1, 16):
        fn = n * f0 * np.sqrt(1 + B * n * n)
        if fn > F_HI:
            break
        amp = abs(np.sin(np.pi * n * pos)) / n
        spec += amp * np.exp(-0.5 * (np.log(grid / fn) / 0.015) ** 2)
    body = 0.1 * np.exp(-0.5 * (np.log(grid / rng.uniform(150, 300)) / 0.2) ** 2)
    spec = np.log1p(30 * (spec + body)) + rng.normal(0, 0.03, n_bins)
    meta = np.array([L, d * 1e3])
    return spec.astype(np.float32), meta.astype(np.float32), np.float32(T)


def make(n, n_bins, rng):
    S, M, T = zip(*(pluck(rng, n_bins) for _ in range(n)))
    return np.stack(S), np.stack(M), np.array(T)
