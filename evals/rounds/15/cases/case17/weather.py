"""Toy weather generator + degree-day snow model for a set of stakes."""
import numpy as np

FEATURES = ["t_mean", "t_min", "precip", "wind", "sun_h", "precip_7d", "elev_km", "season_day",
            "cum_cold_precip", "cum_pdd"]


def simulate(n_stakes, n_days, seed):
    rng = np.random.default_rng(seed)
    rows, targets = [], []
    for _ in range(n_stakes):
        elev = rng.uniform(1.2, 3.0)
        depth = 0.0
        doy_temp = -2.0 - 4.0 * (elev - 1.2)
        hist = []
        cum_cold, cum_pdd = 0.0, 0.0
        for d in range(n_days):
            seasonal = 6.0 * np.sin(np.pi * (d / n_days) - np.pi / 2)  # cold mid-season
            t = doy_temp + seasonal + rng.normal(0, 4)
            tmin = t - rng.uniform(2, 8)
            p = rng.gamma(0.6, 6.0) if rng.random() < 0.45 else 0.0
            wind = rng.gamma(2.0, 3.0)
            sun = np.clip(rng.normal(5, 2.5) - p / 4, 0, 10)
            snow_frac = 1.0 / (1.0 + np.exp(2.0 * (t - 0.5)))
            melt = max(t, 0.0) * 0.8 + 0.15 * sun * (t > -3)
            drift = 0.02 * wind * depth / 50.0
            depth = max(depth + 1.2 * p * snow_frac - melt - drift, 0.0) * 0.995
            hist.append((t, tmin, p, wind, sun))
            cum_cold += p * (t < 1.0)
            cum_pdd += max(t, 0.0)
            if d >= 7:
                w = np.array(hist[-7:])
                feats = np.concatenate([w.mean(0), w[:, 2:3].sum(0), [elev, d / n_days, cum_cold / 10.0, cum_pdd / 10.0]])
                rows.append(feats)
                targets.append(depth)
    x = np.asarray(rows, dtype=np.float32)
    y = np.asarray(targets, dtype=np.float32)
    return x, y
