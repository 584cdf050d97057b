"""Synthetic seismogram windows.

Tremor: a narrow-band 1.5-5 Hz oscillation with slowly varying envelope and a
couple of overtones. Tectonic events: short high-frequency bursts with an
exponential coda. Both sit on top of coloured microseism noise.
"""
import numpy as np

FS = 100
N = 256


def _microseism(rng, n):
    w = rng.normal(size=n + 32)
    k = np.hanning(31)
    k /= k.sum()
    return np.convolve(w, k, mode="same")[16:16 + n] * 2.0 + rng.normal(scale=0.3, size=n)


def _tremor(rng, t):
    f0 = rng.uniform(2.5, 6.0)
    env = 0.5 + 0.5 * np.sin(2 * np.pi * rng.uniform(0.1, 0.4) * t + rng.uniform(0, 6.3))
    amp = rng.uniform(0.8, 1.6)
    sig = np.sin(2 * np.pi * f0 * t + rng.uniform(0, 6.3))
    sig += 0.4 * np.sin(2 * np.pi * 2 * f0 * t + rng.uniform(0, 6.3))
    return amp * env * sig


def _event(rng, t):
    t0 = rng.uniform(0.2, 1.8)
    f = rng.uniform(8, 20)
    coda = np.exp(-np.clip(t - t0, 0, None) * rng.uniform(3, 8)) * (t >= t0)
    return rng.uniform(1.0, 3.0) * coda * np.sin(2 * np.pi * f * t)


def make_windows(n, seed, p_tremor=0.25, p_event=0.35):
    rng = np.random.default_rng(seed)
    t = np.arange(N) / FS
    x = np.zeros((n, N), dtype=np.float32)
    y = np.zeros(n, dtype=np.float32)
    for i in range(n):
        s = _microseism(rng, N)
        if rng.random() < p_event:
            s = s + _event(rng, t)
        if rng.random() < p_tremor:
            s = s + _tremor(rng, t)
            y[i] = 1.0
        x[i] = s
    x /= 2.0
    return x[:, None, :], y
