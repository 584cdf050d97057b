import numpy as np
import torch


def simulate(n, seed=9):
    rng = np.random.default_rng(seed)
    elev = rng.normal(0, 1, n)
    pool = rng.normal(0, 1, n)
    water = rng.exponential(1.0, n)
    machine = (rng.random(n) < 0.35).astype(float)
    heaters = (rng.random(n) < 0.15).astype(float)
    crop = rng.integers(0, 4, n)
    bloom = rng.normal(0, 1, n)
    tmin = rng.normal(0, 1, n)
    hectares = rng.lognormal(1.0, 0.8, n)
    days = rng.uniform(10, 30, n)
    exposure = hectares * days / 100.0
    crop_eff = np.array([0.0, 0.2, 0.7, 1.0])[crop]
    log_rate = (-1.8 + 0.6 * pool - 0.3 * elev - 0.25 * np.log1p(water)
                - 0.7 * machine - 0.9 * heaters + crop_eff - 0.5 * bloom * (1 - machine)
                - 0.6 * tmin + 0.3 * pool * (tmin < 0))
    counts = rng.poisson(np.exp(log_rate) * exposure)
    x = np.column_stack([elev, pool, np.log1p(water), machine, heaters, np.eye(4)[crop], bloom, tmin])
    return x.astype(np.float32), counts.astype(np.float32), exposure.astype(np.float32)


def to_tensors(x, counts, exposure):
    return torch.from_numpy(x), torch.from_numpy(counts), torch.from_numpy(np.log(exposure))
