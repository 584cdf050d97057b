"""Synthetic Raman-like spectra of 5 compounds.

Each compound has a handful of characteristic Lorentzian peaks; a measured
spectrum adds a sloped fluorescence baseline, a small calibration shift of the
whole axis, intensity scaling and shot noise.
"""
import numpy as np

N_POINTS = 256
N_CLASSES = 5


def _lorentz(x, c, w):
    return 1.0 / (1.0 + ((x - c) / w) ** 2)


def compound_peaks(rng):
    peaks = []
    shared = rng.uniform(20, 236, size=3)                  # peaks common to all compounds
    for _ in range(N_CLASSES):
        own = rng.uniform(20, 236, size=3)
        centres = np.concatenate([shared + rng.normal(0, 4, 3), own])
        heights = rng.uniform(0.4, 1.0, size=len(centres))
        widths = rng.uniform(2, 5, size=len(centres))
        peaks.append((centres, heights, widths))
    return peaks


def measure(peaks, label, rng):
    x = np.arange(N_POINTS, dtype=np.float64)
    centres, heights, widths = peaks[label]
    shift = rng.normal(0, 2.0)
    y = sum(h * _lorentz(x, c + shift, w) for c, h, w in zip(centres, heights, widths))
    y = y * rng.uniform(0.7, 1.3)
    y += rng.uniform(0, 0.6) + rng.uniform(-0.3, 0.3) * x / N_POINTS
    y += rng.normal(0, 0.06, N_POINTS)
    return y.astype(np.float32)


def make_split(n_per_class, seed, peaks):
    """Returns spectra grouped by compound (all of class 0, then class 1, ...)."""
    rng = np.random.default_rng(seed)
    X, y = [], []
    for c in range(N_CLASSES):
        for _ in range(n_per_class):
            X.append(measure(peaks, c, rng))
            y.append(c)
    return np.stack(X), np.array(y)
