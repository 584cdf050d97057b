import numpy as np

N_COUNTIES = 50
SOIL_DIM = 6


def soil_survey(seed=5):
    rng = np.random.default_rng(seed)
    return rng.normal(0, 1, (N_COUNTIES, SOIL_DIM)).astype(np.float32)


def simulate_book(n, seed):
    soil = soil_survey()
    w_soil = np.array([0.5, -0.4, 0.0, 0.3, 0.0, -0.2])
    rng = np.random.default_rng(seed)
    county = rng.integers(0, N_COUNTIES, n)
    acres = rng.lognormal(4.5, 0.8, n)                 # ~90 acres median
    drought = rng.gamma(2.0, 0.5, n)
    hail = rng.random(n) < 0.15
    irrigated = rng.random(n) < 0.3
    crop = rng.integers(0, 3, n)                         # corn / soy / wheat
    log_rate = -6.0 + soil[county] @ w_soil + 0.6 * drought * (1 - irrigated) + 1.0 * hail \
        + np.array([0.0, -0.3, 0.2])[crop] - 0.4 * irrigated
    claims = rng.poisson(np.exp(log_rate) * acres)
    feats = np.stack([drought, hail, irrigated, crop == 0, crop == 1, crop == 2], 1).astype(np.float32)
    return county, feats, acres.astype(np.float32), claims.astype(np.float32)
