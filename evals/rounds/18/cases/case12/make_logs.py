import os

import numpy as np

N_LOTS = 300


def generate(path="logs.npz", n=30000, seed=8):
    rng = np.random.default_rng(seed)
    lot_pop = rng.gamma(1.5, 1.0, N_LOTS)              # some lots are busy hubs
    lot_commute = rng.uniform(0, 1, N_LOTS)             # residential vs office area
    lot = rng.integers(0, N_LOTS, n)
    how = rng.integers(0, 168, n)
    hour, dow = how % 24, how // 24
    rain = rng.binomial(1, 0.2, n)
    event = rng.binomial(1, 0.05, n)
    weekday = (dow < 5).astype(float)
    rush = np.exp(-((hour - 8) ** 2) / 4) * (1 - lot_commute[lot]) + np.exp(-((hour - 18) ** 2) / 4) * lot_commute[lot]
    rate = 8.0 * lot_pop[lot] * (0.3 + 2.5 * rush * weekday + 0.6 * (1 - weekday) * np.exp(-((hour - 14) ** 2) / 12))
    rate *= np.where(rain == 1, 1.4, 1.0) * np.where(event == 1, 2.0, 1.0)
    y = rng.poisson(rate)
    feats = np.stack([np.sin(2 * np.pi * hour / 24), np.cos(2 * np.pi * hour / 24),
                      weekday, rain, event, np.sin(2 * np.pi * how / 168), np.cos(2 * np.pi * how / 168)], 1)
    np.savez_compressed(path, lot=lot, feats=feats.astype(np.float32), y=y.astype(np.float32))


if __name__ == "__main__":
    generate()
