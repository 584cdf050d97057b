"""Simulated dipwell record.

A leaky-bucket model: the water table (cm below surface, negative = below)
rises with rain, drains towards a base level, and loses water to
evapotranspiration that peaks in summer.
"""
import numpy as np


def simulate_station(n_days=4200, seed=0):
    rng = np.random.default_rng(seed)
    doy = np.arange(n_days) % 365
    season = np.sin(2 * np.pi * (doy - 80) / 365.0)

    # rain: wet days are clustered (two-state Markov chain), amounts gamma-ish
    wet = np.zeros(n_days, dtype=bool)
    for t in range(1, n_days):
        p = 0.65 if wet[t - 1] else 0.25
        wet[t] = rng.random() < p
    rain = np.where(wet, rng.gamma(1.4, 4.0, n_days), 0.0)  # mm/day

    et = 1.2 + 1.0 * season  # mm/day, higher in summer
    level = np.zeros(n_days)
    level[0] = -12.0
    for t in range(1, n_days):
        drain = 0.06 * (level[t - 1] + 8.0)
        level[t] = level[t - 1] + 0.35 * rain[t - 1] - 0.9 * et[t - 1] - drain
        level[t] += rng.normal(0, 0.25)
        level[t] = min(level[t], 2.0)  # surface ponding caps the table
    return {
        "level": level.astype(np.float32),
        "rain": rain.astype(np.float32),
        "doy_sin": np.sin(2 * np.pi * doy / 365.0).astype(np.float32),
        "doy_cos": np.cos(2 * np.pi * doy / 365.0).astype(np.float32),
    }
