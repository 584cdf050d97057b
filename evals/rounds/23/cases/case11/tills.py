import numpy as np

CLASSES = ["slow", "normal", "busy"]


def simulate_logs(n_days, missing_rate, seed=21):
    rng = np.random.default_rng(seed)
    weekday = np.arange(n_days) % 7
    temp = 12 + 10 * np.sin(2 * np.pi * np.arange(n_days) / 365) + rng.normal(0, 3, n_days)
    rain = rng.random(n_days) < 0.3
    trend = np.zeros(n_days)
    for i in range(1, n_days):
        trend[i] = 0.92 * trend[i - 1] + rng.normal(0, 12)
    bowls = 120 + 35 * (weekday >= 4) - 2.0 * (temp - 12) + 30 * rain + trend + rng.normal(0, 8, n_days)
    logged = bowls.copy()
    logged[rng.random(n_days) < missing_rate] = np.nan
    return logged, weekday, temp, rain.astype(np.float32), bowls


def features(logged, weekday, temp, rain, bowls, window):
    """Window of past days (forward-filled, with a missing flag) + tomorrow's calendar/forecast."""
    filled = logged.copy()
    last = np.nanmean(logged)
    for i in range(len(filled)):
        if np.isnan(filled[i]):
            filled[i] = last
        last = filled[i]
    miss = np.isnan(logged).astype(np.float32)
    q1, q2 = np.quantile(bowls, [1 / 3, 2 / 3])
    X, y = [], []
    for t in range(window, len(bowls)):
        past = (filled[t - window:t] - 120) / 40
        X.append(np.concatenate([past, miss[t - window:t], np.eye(7)[weekday[t]],
                                 [(temp[t] - 12) / 8, rain[t]]]))
        y.append(int(bowls[t] > q1) + int(bowls[t] > q2))
    return np.asarray(X, np.float32), np.asarray(y, np.int64)
