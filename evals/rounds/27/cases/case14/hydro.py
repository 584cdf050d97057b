"""Synthetic rainfall / spring discharge series and windowing."""
import numpy as np


def simulate(hours, seed):
    rng = np.random.default_rng(seed)
    # storms: Poisson arrivals, exponential depths, each lasting a few hours
    rain = np.zeros(hours)
    t = 0
    while t < hours:
        t += int(rng.exponential(60)) + 1
        if t >= hours:
            break
        dur = rng.integers(2, 10)
        rain[t:t + dur] += rng.exponential(3.0, size=min(dur, hours - t))
    # fast conduit response (delay ~10 h) plus slow matrix drainage
    k = np.arange(200)
    fast = np.where(k >= 8, np.exp(-(k - 8) / 10.0), 0.0)
    slow = np.exp(-k / 90.0)
    q = 0.6 * np.convolve(rain, fast)[:hours] + 0.15 * np.convolve(rain, slow)[:hours]
    # pumping / unmodelled inflow: AR(1) disturbance
    d = np.zeros(hours)
    for i in range(1, hours):
        d[i] = 0.97 * d[i - 1] + rng.normal(0, 0.35)
    q = q + d + 5.0
    return rain.astype(np.float32), q.astype(np.float32)


def make_windows(rain, q, lookback, horizon):
    """Input windows: [rain, discharge] over the last `lookback` hours."""
    n = len(q) - lookback - horizon + 1
    X = np.stack([np.stack([rain[i:i + lookback], q[i:i + lookback]], axis=-1)
                  for i in range(n)])
    return X.reshape(n, -1)


def make_targets(q, lookback, horizon):
    """Discharge `horizon` hours ahead of each window."""
    n = len(q) - lookback - horizon + 1
    return q[horizon:horizon + n].copy()


def chronological_split(X, y, val_fraction, gap):
    cut = int(len(X) * (1 - val_fraction))
    return (X[:cut], y[:cut]), (X[cut + gap:], y[cut + gap:])
