import numpy as np


def spring_record(hours, seed=0):
    rng = np.random.default_rng(seed)
    h = np.arange(hours)
    air = 12 + 8 * np.sin(2 * np.pi * (h - 9) / 24) + np.cumsum(rng.normal(0, 0.3, hours)) * 0.1
    aquifer = 2.0 * np.sin(2 * np.pi * h / (24 * 17.3))
    surges = np.zeros(hours)
    starts = np.flatnonzero(rng.random(hours) < 0.01)
    for s in starts:
        dur = rng.integers(4, 14)
        surges[s:s + dur] += rng.uniform(1.5, 4.0) * np.exp(-np.arange(min(dur, hours - s)) / 5)
    pool = np.zeros(hours)
    pool[0] = 42.0
    for t in range(1, hours):
        target = 41 + aquifer[t] + 0.12 * (air[t] - 12) + surges[t]
        pool[t] = pool[t - 1] + 0.25 * (target - pool[t - 1]) + rng.normal(0, 0.08)
    return np.stack([pool, air], 1).astype(np.float32)


def windows(rec, lookback, horizon):
    xs, ys = [], []
    for t in range(lookback, len(rec) - horizon):
        xs.append(rec[t - lookback:t])
        ys.append(rec[t:t + horizon, 0].mean())
    return np.asarray(xs), np.asarray(ys, dtype=np.float32)
