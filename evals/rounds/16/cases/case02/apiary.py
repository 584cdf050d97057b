import numpy as np


def simulate_hive(rng, n_days):
    doy = np.arange(n_days) % 365
    temp = 12 + 10 * np.sin(2 * np.pi * (doy - 100) / 365) + rng.normal(0, 2.5, n_days)
    rain = (rng.random(n_days) < 0.3).astype(float)
    bloom = np.exp(-0.5 * ((doy - rng.normal(150, 10)) / 25) ** 2) + 0.6 * np.exp(-0.5 * ((doy - 220) / 15) ** 2)
    strength = rng.uniform(0.6, 1.4)
    forage = strength * bloom * np.clip((temp - 10) / 10, 0, 1.5) * (1 - 0.8 * rain)
    consumption = 0.08 + 0.02 * np.clip(10 - temp, 0, None)
    delta = 1.6 * forage - consumption + rng.normal(0, 0.08, n_days)
    # colony momentum: flow days come in runs
    for t in range(1, n_days):
        delta[t] += 0.25 * delta[t - 1]
    feats = np.column_stack([(temp - 12) / 8, rain, np.sin(2 * np.pi * doy / 365),
                             np.cos(2 * np.pi * doy / 365), delta])
    return feats.astype(np.float32), delta.astype(np.float32)


def make_apiary(n_hives, n_days, seed):
    rng = np.random.default_rng(seed)
    feats, deltas = zip(*(simulate_hive(rng, n_days) for _ in range(n_hives)))
    return np.stack(feats), np.stack(deltas)   # (hives, days, F), (hives, days)
