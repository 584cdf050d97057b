"""Synthetic daily records for a river reach.

Columns (raw units):
  rain_a_0..rain_a_2   rainfall at station A, today and the two previous days [mm]
  rain_b_0..rain_b_2   rainfall at station B, same lags [mm]
  upstream_cm          upstream gauge reading [cm]
  air_temp_c           mean air temperature [C]
  snow_cover_pct       basin snow cover [%]
  day_sin, day_cos     day of year encoding
Target: downstream gauge reading tomorrow [cm].
"""
import numpy as np

COLUMNS = ["rain_a_0", "rain_a_1", "rain_a_2", "rain_b_0", "rain_b_1", "rain_b_2",
           "upstream_cm", "air_temp_c", "snow_cover_pct", "day_sin", "day_cos"]


def simulate(n_days, seed):
    rng = np.random.default_rng(seed)
    day = np.arange(n_days)
    season = 2 * np.pi * (day % 365) / 365.0
    temp = 10 - 12 * np.cos(season) + rng.normal(0, 3, n_days)
    snow = np.clip(60 - 5 * temp + rng.normal(0, 8, n_days), 0, 100)
    wet = rng.random(n_days) < 0.35
    rain_a = np.where(wet, rng.gamma(2.0, 6.0, n_days), 0.0)
    rain_b = np.where(rng.random(n_days) < 0.3, rng.gamma(2.0, 8.0, n_days), 0.0) + 0.3 * rain_a
    lag = lambda r, k: np.concatenate([np.zeros(k), r[:-k]]) if k else r
    upstream = 150 + 40 * np.sin(season - 1.0) + 2.5 * lag(rain_a, 1) + 1.5 * lag(rain_b, 2) \
        + rng.normal(0, 10, n_days)
    melt = np.clip(temp, 0, None) * snow / 100.0
    level = (0.9 * upstream + 2.0 * rain_a + 1.2 * lag(rain_a, 1) + 3.0 * lag(rain_b, 1)
             + 0.8 * lag(rain_b, 2) + 4.0 * melt + 0.02 * rain_a * lag(rain_b, 1) ** 1.2
             + rng.normal(0, 6, n_days))
    x = np.stack([rain_a, lag(rain_a, 1), lag(rain_a, 2), rain_b, lag(rain_b, 1), lag(rain_b, 2),
                  upstream, temp, snow, np.sin(season), np.cos(season)], axis=1)
    return x.astype(np.float32), level.astype(np.float32)[:, None]
