"""Synthetic cello-bow spectra.

Each recording is a 64-bin log-magnitude spectrum of one bowed note: harmonic
peaks of the fundamental plus a noise signature that depends on the bowing fault.
"""
import numpy as np

CLASSES = ["clean", "scratch", "wolf", "whistle"]
N_BINS = 64


def _spectrum(rng, label):
    f0 = rng.uniform(2.0, 6.0)
    bins = np.arange(N_BINS)
    spec = np.zeros(N_BINS)
    for h in range(1, 10):
        spec += np.exp(-0.5 * ((bins - f0 * h) / 0.8) ** 2) / h
    if label == 1:   # scratch: broadband hiss in the upper half
        spec[32:] += rng.uniform(0.4, 0.7)
    elif label == 2:  # wolf: beating around the 2nd harmonic
        c = int(2 * f0)
        spec[max(c - 3, 0):c + 4] += 1.2 * rng.uniform(0.8, 1.2)
    elif label == 3:  # ponticello whistle: narrow high peak
        c = rng.integers(44, 60)
        spec[c - 1:c + 2] += 1.5
    spec += rng.normal(0, 0.15, N_BINS)
    return np.log1p(np.clip(spec, 0, None)).astype(np.float32)


def make_recordings(n, seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, len(CLASSES), size=n)
    sessions = rng.integers(0, 40, size=n)
    specs = np.stack([_spectrum(rng, l) for l in labels])
    return specs, labels, sessions


def catalogue(specs, labels, sessions):
    """Group recordings by session id the way the annotation sheet lists them."""
    order = np.argsort(sessions, kind="stable")
    return specs[order], sessions[order]


def annotation_sheet(labels, sessions):
    """Labels as exported from the annotation tool (one row per recording)."""
    order = np.argsort(sessions, kind="stable")
    return labels[order]
