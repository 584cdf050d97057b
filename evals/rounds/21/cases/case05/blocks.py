import numpy as np

N_REGIONS = 8


def portfolio(n, seed):
    rng = np.random.default_rng(seed)
    region = rng.integers(0, N_REGIONS, n)
    slope = rng.uniform(0, 25, n)
    vine_age = rng.uniform(2, 40, n)
    netting = (rng.random(n) < 0.3).astype(np.float32)
    hail_days = rng.poisson(2 + region * 0.5)
    hectares = rng.uniform(0.5, 20, n)
    eta = -2.0 + 0.35 * hail_days - 1.2 * netting + 0.02 * slope - 0.01 * vine_age
    y = rng.poisson(hectares * np.exp(eta))
    X = np.stack([hail_days, netting, slope / 25, vine_age / 40], 1).astype(np.float32)
    return X, region, hectares.astype(np.float32), y.astype(np.float32)
