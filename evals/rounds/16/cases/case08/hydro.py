import numpy as np


def simulate(n_days, seed):
    rng = np.random.default_rng(seed)
    doy = np.arange(n_days) % 365
    base = 4.0 + 3.0 * np.sin(2 * np.pi * (doy - 60) / 365)
    storms = np.zeros(n_days)
    hits = rng.random(n_days) < 0.04
    storms[hits] = rng.gamma(2.0, 8.0, hits.sum())
    # recession: each storm drains over a couple of weeks
    runoff = np.zeros(n_days)
    for t in range(n_days):
        runoff[t] = (runoff[t - 1] * 0.82 if t else 0.0) + storms[t]
    inflow = np.clip(base + runoff + rng.normal(0, 0.8, n_days), 0, None)

    level = np.zeros(n_days)
    lv = 12.0
    for t in range(n_days):
        release = 0.35 * max(lv - 8.0, 0.0) ** 1.3 + 1.0
        lv = lv + 0.06 * (inflow[t] - release)
        lv = min(max(lv, 2.0), 30.0)
        level[t] = lv
    return level.astype(np.float32), inflow.astype(np.float32), doy
