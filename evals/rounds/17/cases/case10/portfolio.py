import numpy as np

ZONES = ["X", "AE", "A", "VE"]


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    elev = rng.gamma(2.0, 3.0, n)                 # metres above base flood elevation
    dist = rng.exponential(600, n)                # metres to nearest water
    zone = rng.integers(0, len(ZONES), n)
    age = rng.uniform(0, 80, n)
    floor = rng.integers(0, 3, n)                 # 0 = basement, 1 = ground, 2 = upper
    valve = rng.random(n) < 0.4
    exposure = np.clip(rng.uniform(0.1, 1.0, n), 0.05, 1.0)
    log_rate = (-2.3 - 0.25 * elev - 0.0012 * dist + np.array([0.0, 0.9, 0.7, 1.4])[zone]
                + 0.008 * age - 0.45 * floor - 0.5 * valve)
    counts = rng.poisson(np.exp(log_rate) * exposure)
    X = np.column_stack([
        np.log1p(elev), np.log1p(dist) - 6, age / 40 - 1, floor - 1, valve.astype(float) - 0.4,
        np.eye(len(ZONES))[zone],
    ]).astype(np.float32)
    return X, exposure.astype(np.float32), counts.astype(np.float32)
