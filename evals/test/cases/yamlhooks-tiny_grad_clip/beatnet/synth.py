"""Synthetic single-lead heartbeat windows for 4 beat classes.

normal, premature ventricular (wide QRS), premature atrial (early P, narrow
QRS), and bundle-branch-block-like (notched QRS).
"""
import numpy as np
import torch
from torch.utils.data import TensorDataset

CLASSES = ("N", "V", "A", "B")


def _gauss(t, mu, sigma, amp):
    return amp * np.exp(-0.5 * ((t - mu) / sigma) ** 2)


def _beat(kind, t, rng):
    jitter = rng.normal(0, 0.01)
    p_pos, qrs_w, qrs_amp = 0.25, 0.018, 1.0
    extra = 0.0
    if kind == "V":
        qrs_w, qrs_amp, p_amp = 0.045, 1.3, 0.0
    elif kind == "A":
        p_pos, p_amp = 0.15, 0.18
    else:
        p_amp = 0.15
    if kind == "B":
        extra = _gauss(t, 0.5 + 0.04 + jitter, 0.015, 0.6)
    x = (_gauss(t, p_pos + jitter, 0.03, p_amp)
         + _gauss(t, 0.5 + jitter, qrs_w, qrs_amp)
         - _gauss(t, 0.47 + jitter, 0.01, 0.15)
         + _gauss(t, 0.75 + jitter, 0.05, 0.3 * rng.uniform(0.7, 1.3))
         + extra)
    return x * rng.uniform(0.8, 1.2)


def make_beats(n, beat_len, noise_std, baseline_wander, seed):
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 1, beat_len)
    labels = rng.integers(0, len(CLASSES), size=n)
    x = np.empty((n, beat_len), dtype=np.float32)
    for i, c in enumerate(labels):
        wander = baseline_wander * np.sin(2 * np.pi * rng.uniform(0.2, 0.8) * t + rng.uniform(0, 6.3))
        x[i] = _beat(CLASSES[c], t, rng) + wander + rng.normal(0, noise_std, beat_len)
    return TensorDataset(torch.from_numpy(x).unsqueeze(1), torch.from_numpy(labels.astype(np.int64)))
