"""Synthetic tide-gauge series."""
import numpy as np

PERIODS = (12.42, 12.0, 25.82, 23.93)  # M2, S2, O1, K1 in hours (one sample per hour)


def station_series(station, length, seed):
    rng = np.random.default_rng(seed * 1000 + station)
    t = np.arange(length, dtype=np.float64)
    amps = rng.uniform(0.2, 1.0, size=len(PERIODS))
    phases = rng.uniform(0, 2 * np.pi, size=len(PERIODS))
    drift = 1.0 + 0.3 * np.sin(2 * np.pi * t / rng.uniform(300, 700))
    x = sum(a * np.sin(2 * np.pi * t / p + ph) for a, p, ph in zip(amps, PERIODS, phases)) * drift
    noise = np.zeros(length)
    eps = rng.normal(0, 0.25, size=length)
    for i in range(1, length):
        noise[i] = 0.8 * noise[i - 1] + eps[i]
    return (x + noise).astype(np.float32)


def make_windows(series, context, horizon, stride=1):
    """Cut (input window, target) pairs. The target lies `horizon` steps after the
    last input sample."""
    span = context + horizon
    xs, ys = [], []
    for i in range(0, len(series) - span + 1, stride):
        seg = series[i:i + span]
        xs.append(seg[-context:])
        ys.append(seg[-1])
    return np.stack(xs), np.array(ys, dtype=np.float32)
