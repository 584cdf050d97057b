"""Simulated lagoon record and the sliding-window dataset built on top of it."""
import numpy as np


def simulate_lagoon(n_days, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n_days)
    season = 2.5 * np.sin(2 * np.pi * t / 365.25)
    # rain arrives in bursts; inflow is a smoothed, lagged response to it
    rain = rng.gamma(0.3, 8.0, size=n_days) * (rng.random(n_days) < 0.35)
    kernel = np.exp(-np.arange(10) / 3.0)
    inflow = np.convolve(rain, kernel)[:n_days]
    sal = np.empty(n_days)
    sal[0] = 30.0
    for i in range(1, n_days):
        drift = 0.08 * (30.0 + season[i] - sal[i - 1])
        fresh = -0.06 * inflow[i - 1]
        sal[i] = sal[i - 1] + drift + fresh + rng.normal(0, 0.35)
    return sal.astype(np.float32), rain.astype(np.float32), inflow.astype(np.float32)


def make_windows(sal, rain, inflow, cfg):
    """Stack `lookback` days of the three channels as inputs and the salinity
    `horizon` days after the last observed day as the target."""
    lookback = cfg["forecast"]["lookback"]
    horizon = cfg["forecast"].get("lead", 0)
    chans = np.stack([sal, rain, inflow], axis=-1)
    starts = np.arange(0, len(sal) - lookback - horizon)
    X = np.stack([chans[s:s + lookback] for s in starts])
    last = starts + lookback - 1
    y = sal[last + horizon]
    return X, y, sal[last]


def train_val_split(X, y, persist, val_fraction):
    # chronological split: the last part of the record is held out
    cut = int(len(X) * (1 - val_fraction))
    return (X[:cut], y[:cut], persist[:cut]), (X[cut:], y[cut:], persist[cut:])
