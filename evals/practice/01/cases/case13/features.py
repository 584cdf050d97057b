import numpy as np


def moving_average(x, k):
    kernel = np.ones(k) / k
    return np.convolve(x, kernel, mode="same")


def build_windows(log, lags, horizon, smooth_window):
    """Rows: the last `lags` readings of every channel + a smoothed humidity
    trend; target: humidity `horizon` steps after the last reading."""
    rh = log[:, 0]
    trend = moving_average(rh, smooth_window)
    X, y = [], []
    for t in range(lags, len(log) - horizon):
        past = log[t - lags:t].reshape(-1)
        X.append(np.concatenate([past, [trend[t - 1], rh[t - 1] - trend[t - 1]]]))
        y.append(rh[t - 1 + horizon])
    return np.asarray(X, np.float32), np.asarray(y, np.float32)
