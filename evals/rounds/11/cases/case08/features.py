import numpy as np


def shift(x, k, fill=np.nan):
    """Pandas-style shift along time: out[t] = x[t - k]."""
    out = np.full_like(x, fill, dtype=np.float64)
    if k == 0:
        out[:] = x
    elif k > 0:
        out[k:] = x[:-k]
    else:
        out[:k] = x[-k:]
    return out


def make_lags(series, n_lags):
    """Stack lagged copies of a single series -> (T, n_lags)."""
    return np.stack([shift(series, k) for k in range(n_lags)], axis=1)


def rolling_mean(series, window):
    out = np.full(series.shape, np.nan)
    c = np.cumsum(np.insert(series, 0, 0.0))
    out[window:] = (c[window:-1] - c[:-window - 1]) / window
    return out


def calendar(n_days, start_dow=0):
    dow = (np.arange(n_days) + start_dow) % 7
    onehot = np.eye(7)[dow]
    return onehot


def build_store_frame(demand, promo, n_lags, roll_window):
    """Feature matrix and target for one store; rows with incomplete history are dropped."""
    T = len(demand)
    lags = make_lags(demand, n_lags)
    roll = rolling_mean(demand, roll_window)[:, None]
    cal = calendar(T)
    X = np.concatenate([lags, roll, cal, promo[:, None]], axis=1)
    y = demand.astype(np.float64)
    keep = ~np.isnan(X).any(axis=1)
    return X[keep], y[keep], np.arange(T)[keep]
