"""Synthetic cenote record: daily rain (mm) and water level (m above datum)."""
import numpy as np


def simulate(days, seed=0):
    rng = np.random.default_rng(seed)
    season = 0.5 + 0.4 * np.sin(2 * np.pi * np.arange(days) / 365.0)
    wet = rng.random(days) < 0.3 * (0.5 + season)
    rain = np.where(wet, rng.exponential(12.0, days), 0.0)
    level = np.empty(days)
    base = 4.0
    level[0] = base
    for t in range(1, days):
        recharge = 0.025 * rain[t]
        drain = 0.06 * (level[t - 1] - base)
        level[t] = level[t - 1] + recharge - drain + rng.normal(0, 0.01)
    return rain.astype(np.float32), level.astype(np.float32)
