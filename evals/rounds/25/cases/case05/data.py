import numpy as np
import torch

N_PLAZAS = 40


def make_sales(n_days, rng):
    plaza_base = rng.uniform(60, 400, N_PLAZAS)               # pretzels / day
    plaza_weekend = rng.uniform(0.7, 1.8, N_PLAZAS)          # office vs tourist plazas
    rows = []
    for day in range(n_days):
        wd = day % 7
        temp = 12 + 10 * np.sin(2 * np.pi * day / 365) + rng.normal(0, 3)
        rain = max(0.0, rng.normal(0, 3))
        for p in range(N_PLAZAS):
            mult = plaza_weekend[p] if wd >= 5 else 1.0
            y = plaza_base[p] * mult * np.exp(-0.08 * rain + 0.01 * (temp - 12)) * rng.lognormal(0, 0.08)
            rows.append((day, p, wd, temp, rain, y))
    a = np.array(rows, dtype=np.float64)
    plaza = a[:, 1].astype(np.int64)
    wd = a[:, 2].astype(np.int64)
    dense = np.concatenate([np.eye(7)[wd], (a[:, 3:5] - [12, 1]) / [8, 3]], 1).astype(np.float32)
    return a[:, 0], torch.from_numpy(plaza), torch.from_numpy(dense), torch.from_numpy(a[:, 5].astype(np.float32))
