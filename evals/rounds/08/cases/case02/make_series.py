import numpy as np


def make_panel(n_series=120, length=400, seed=5):
    rng = np.random.default_rng(seed)
    store_type = rng.integers(0, 4, n_series)
    region = rng.integers(0, 3, n_series)
    size = rng.uniform(0.5, 2.0, n_series)
    t = np.arange(length)
    series = np.empty((n_series, length), dtype=np.float32)
    for i in range(n_series):
        level = 20 * size[i] * (1 + 0.3 * store_type[i])
        weekly_shape = np.roll(np.array([0.7, 0.8, 0.9, 1.0, 1.3, 1.6, 1.1]), store_type[i])
        amp = 0.5 + 0.25 * region[i]
        season = 1 + amp * (weekly_shape[t % 7] - 1)
        trend = 1 + (0.0015 * (region[i] - 1)) * t
        holiday = 1 + 0.5 * ((t % 91) < 3)
        noise = np.exp(0.08 * rng.standard_normal(length))
        series[i] = level * season * trend * holiday * noise
    statics = np.stack([store_type, region], 1), size.astype(np.float32)
    return series, statics


def windows(series, past, horizon, start, stop, step=1):
    """Cut (past, future) windows whose forecast origin lies in [start, stop)."""
    xs, ys, ids = [], [], []
    for i in range(series.shape[0]):
        for o in range(max(start, past), min(stop, series.shape[1] - horizon + 1), step):
            xs.append(series[i, o - past:o])
            ys.append(series[i, o:o + horizon])
            ids.append(i)
    return np.array(xs), np.array(ys), np.array(ids)
