import numpy as np

CHANNELS = ("level", "rain", "doy_sin", "doy_cos")


def _window(arr, end, lookback):
    """The `lookback` values up to and including index `end`."""
    return arr[end - lookback + 1:end + 1]


def make_windows(record, lookback=30, horizon=7):
    """Turn the daily record into (history, target) pairs.

    history: [lookback, channels] ending on the forecast day t
    target : water table at t + horizon
    """
    level = record["level"]
    xs, ys = [], []
    for t in range(lookback, len(level) - horizon):
        end = t + horizon
        hist = np.stack([_window(record[c], end, lookback) for c in CHANNELS], axis=-1)
        xs.append(hist)
        ys.append(level[end])
    return np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.float32)


class Scaler:
    def fit(self, x):
        self.mean = x.reshape(-1, x.shape[-1]).mean(0)
        self.std = x.reshape(-1, x.shape[-1]).std(0) + 1e-6
        return self

    def __call__(self, x):
        return (x - self.mean) / self.std
