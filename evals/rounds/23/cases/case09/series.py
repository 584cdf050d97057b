import numpy as np


def station_series(n_days, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n_days)
    seasonal = 7.5 + 4.0 * np.sin(2 * np.pi * (t - 100) / 365.25)
    anomaly = np.zeros(n_days)
    for i in range(1, n_days):  # coastal-water intrusions decay over ~10 days
        anomaly[i] = 0.9 * anomaly[i - 1] + rng.normal(0, 0.45)
    return (seasonal + anomaly + rng.normal(0, 0.1, n_days)).astype(np.float32)


def make_windows(series, lookback, horizon):
    """Slice a daily series into (inputs, target) pairs.

    The target is the value `horizon` days after the last input day.
    """
    X, y = [], []
    for start in range(len(series) - lookback - horizon + 1):
        target_idx = start + lookback + horizon - 1
        X.append(series[start + horizon:start + lookback + horizon])
        y.append(series[target_idx])
    return np.stack(X), np.array(y, dtype=np.float32)
