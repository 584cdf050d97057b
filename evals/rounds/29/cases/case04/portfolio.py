import numpy as np


def policies(n, seed):
    rng = np.random.default_rng(seed)
    elev = rng.uniform(0, 60, n)             # m above the river
    dist = rng.exponential(800, n)           # m to the river
    herd = rng.integers(10, 400, n)
    barn_age = rng.uniform(0, 80, n)
    levee = (rng.random(n) < 0.35).astype(float)
    soil = rng.uniform(0, 1, n)              # clay fraction
    exposure = np.where(rng.random(n) < 0.3, rng.uniform(0.1, 1.0, n), 1.0)
    log_rate = (0.6 - 0.06 * elev - 0.0012 * dist + 0.25 * np.log(herd / 50)
                + 0.01 * barn_age - 1.1 * levee + 1.2 * soil * (elev < 20))
    claims = rng.poisson(exposure * np.exp(log_rate))
    X = np.stack([elev / 30, np.log1p(dist) - 6, np.log(herd / 50), barn_age / 40,
                  levee, soil], 1)
    return X.astype(np.float32), exposure.astype(np.float32), claims.astype(np.float32)
