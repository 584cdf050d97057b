"""Toy radar micro-Doppler spectrograms (16 Doppler bins x 24 time frames).

walker: body line + swinging limb sinusoid, car: steady line, drone: body + fast
rotor side-bands, bird: body + slow wing-beat wobble.
"""
import numpy as np

CLASSES = ["walker", "car", "drone", "bird"]
BINS, FRAMES = 16, 24


def spectrogram(kind, rng):
    t = np.arange(FRAMES)
    f = np.arange(BINS)[:, None]
    body = rng.uniform(4, 12) + rng.uniform(-0.05, 0.05) * t
    s = np.exp(-((f - body) ** 2) / 1.0)
    if kind == 0:
        limb = body + rng.uniform(3, 5) * np.sin(2 * np.pi * t / rng.uniform(6, 10) + rng.uniform(0, 6))
        s = s + 0.6 * np.exp(-((f - limb) ** 2) / 1.0)
    elif kind == 2:
        off = rng.uniform(3, 6)
        s = s + 0.4 * (np.exp(-((f - body - off) ** 2) / 0.6) + np.exp(-((f - body + off) ** 2) / 0.6))
    elif kind == 3:
        wing = body + rng.uniform(1, 2.5) * np.sin(2 * np.pi * t / rng.uniform(10, 16) + rng.uniform(0, 6))
        s = 0.6 * s + 0.6 * np.exp(-((f - wing) ** 2) / 1.5)
    s = s * rng.uniform(0.5, 1.5) + rng.exponential(0.15, s.shape)
    return np.log1p(s).astype(np.float32)


def make_split(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(CLASSES), n)
    return np.stack([spectrogram(k, rng) for k in y]), y.astype(np.int64)
