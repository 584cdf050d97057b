import numpy as np
import torch

COLS = ["altitude_km", "shelter", "blizzard_days", "fodder_t", "herd_log"]


def simulate(n, seed):
    g = np.random.default_rng(seed)
    altitude = g.uniform(3.0, 5.2, n)
    shelter = g.integers(0, 4, n).astype(float)
    bliz = g.poisson(6, n).astype(float)
    fodder = g.gamma(2.0, 1.5, n)
    herd_log = np.log(g.integers(10, 400, n))
    exposure = g.uniform(0.1, 1.0, n) * np.exp(herd_log) / 50.0
    eta = -2.2 + 0.9 * (altitude - 4) - 0.45 * shelter + 0.18 * bliz - 0.25 * np.sqrt(fodder)
    lam = exposure * np.exp(eta)
    claims = g.poisson(lam)
    X = np.stack([altitude, shelter, bliz, fodder, herd_log], 1)
    X = (X - X.mean(0)) / X.std(0)
    t = lambda a: torch.tensor(a, dtype=torch.float32)
    return t(X), t(exposure), t(claims)
