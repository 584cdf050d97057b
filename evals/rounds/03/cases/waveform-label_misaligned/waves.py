"""Six families of 1-D waveforms, 96 samples each.

0 sine  1 square  2 sawtooth  3 triangle  4 chirp  5 damped burst
Frequency, phase, amplitude and noise are random per example.
"""
import numpy as np

LENGTH = 96
CLASSES = ["sine", "square", "sawtooth", "triangle", "chirp", "burst"]


def _one(kind, rng):
    t = np.arange(LENGTH) / LENGTH
    f = rng.uniform(2.0, 5.0)
    ph = rng.uniform(0, 1)
    x = (f * t + ph) % 1.0
    if kind == 0:
        s = np.sin(2 * np.pi * x)
    elif kind == 1:
        s = np.where(x < 0.5, 1.0, -1.0)
    elif kind == 2:
        s = 2 * x - 1
    elif kind == 3:
        s = 1 - 4 * np.abs(x - 0.5)
    elif kind == 4:
        s = np.sin(2 * np.pi * (f * 0.5 * t + f * 1.5 * t ** 2) + 2 * np.pi * ph)
    else:
        s = np.sin(2 * np.pi * 2 * f * t + 2 * np.pi * ph) * np.exp(-rng.uniform(3, 6) * ((t - ph) % 1.0))
    return rng.uniform(0.6, 1.4) * s + rng.normal(0, 0.25, LENGTH)


def make_waves(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(CLASSES), size=n)
    x = np.stack([_one(k, rng) for k in y]).astype(np.float32)
    return x, y.astype(np.int64)
