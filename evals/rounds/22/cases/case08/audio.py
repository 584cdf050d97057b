"""Synthetic bedside recordings."""
import numpy as np


def _breath(rng, n, sr):
    t = np.arange(n) / sr
    env = 0.5 + 0.5 * np.sin(2 * np.pi * rng.uniform(0.2, 0.35) * t + rng.uniform(0, 6.28))
    return env * rng.normal(0, 0.6, n)


def _snore(rng, n, sr):
    t = np.arange(n) / sr
    f0 = rng.uniform(60, 120)
    sig = sum((0.8 / k) * np.sin(2 * np.pi * k * f0 * t + rng.uniform(0, 6.28)) for k in range(1, 5))
    start = rng.integers(0, n // 3)
    length = rng.integers(n // 2, n - start)
    env = np.zeros(n)
    env[start:start + length] = np.hanning(length)
    return 1.4 * env * sig


def simulate_night(rng, n_windows, window, sr, snore_fraction):
    gain = np.exp(rng.uniform(np.log(0.1), np.log(10.0)))   # phone distance / mic gain
    offset = rng.normal(0, 2.0)                              # cheap ADC DC offset
    hum_f = rng.choice([50.0, 60.0])
    x = np.empty((n_windows, window), np.float32)
    y = (rng.random(n_windows) < snore_fraction).astype(np.float32)
    t = np.arange(window) / sr
    for i in range(n_windows):
        w = _breath(rng, window, sr) + 0.2 * np.sin(2 * np.pi * hum_f * t)
        if y[i]:
            w = w + _snore(rng, window, sr)
        x[i] = gain * w + offset
    return x, y


def simulate(n_nights, n_windows, window, sr, snore_fraction, seed):
    rng = np.random.default_rng(seed)
    xs, ys, nights = [], [], []
    for k in range(n_nights):
        x, y = simulate_night(rng, n_windows, window, sr, snore_fraction)
        xs.append(x); ys.append(y); nights.append(np.full(len(y), k))
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(nights)
