"""Synthetic hourly PM2.5 readings with meteorology, traffic and sensor spikes."""
import numpy as np

COLUMNS = ["wind_speed", "wind_dir_sin", "wind_dir_cos", "temp", "rel_humidity", "pbl_height",
           "traffic_idx", "rain_mm", "hour_sin", "hour_cos", "weekend", "pm25_lag24"]


def generate(n, seed):
    rng = np.random.default_rng(seed)
    hour = rng.integers(0, 24, n)
    wind = rng.gamma(2.0, 1.5, n)
    wdir = rng.uniform(0, 2 * np.pi, n)
    temp = rng.normal(12, 8, n)
    rh = np.clip(rng.normal(65, 15, n), 10, 100)
    pbl = np.exp(rng.normal(6.5, 0.5, n)) * (1 + 0.5 * np.sin(np.pi * (hour - 6) / 12).clip(0))
    weekend = rng.random(n) < 2 / 7
    traffic = (1 + np.exp(-((hour - 8) ** 2) / 4) + np.exp(-((hour - 18) ** 2) / 5)) \
        * np.where(weekend, 0.6, 1.0) * rng.uniform(0.8, 1.2, n)
    rain = rng.exponential(1, n) * (rng.random(n) < 0.15)
    lag24 = np.exp(rng.normal(3, 0.5, n))

    # industrial source to the north-east
    upwind = np.cos(wdir - np.pi / 4).clip(0)
    log_pm = (2.0 + 0.55 * np.log(traffic) - 0.18 * wind - 0.35 * np.log(pbl / 600)
              + 0.5 * upwind + 0.006 * rh - 0.25 * np.log1p(rain) + 0.35 * np.log(lag24)
              + rng.normal(0, 0.15, n))
    pm = np.exp(log_pm)
    spikes = rng.random(n) < 0.02
    pm_obs = np.where(spikes, pm * rng.uniform(5, 20, n), pm)

    X = np.stack([wind, np.sin(wdir), np.cos(wdir), temp, rh, pbl / 1000, traffic, rain,
                  np.sin(2 * np.pi * hour / 24), np.cos(2 * np.pi * hour / 24), weekend,
                  lag24], axis=1).astype(np.float32)
    return X, pm_obs.astype(np.float32), pm.astype(np.float32)
