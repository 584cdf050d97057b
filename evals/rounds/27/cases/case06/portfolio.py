import numpy as np

REGIONS = 5


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    wave = rng.gamma(2.0, 1.0, n)              # m, 1-in-10y significant wave height
    wind = rng.normal(20, 5, n)                # knots
    depth = rng.uniform(3, 25, n)              # m
    age = rng.integers(0, 20, n)
    region = rng.integers(0, REGIONS, n)
    exposure = rng.uniform(0.2, 4.0, n)        # line-km-years
    region_eff = np.array([-0.3, 0.0, 0.4, -0.6, 0.2])[region]
    log_rate = (-2.2 + 0.55 * wave + 0.04 * (wind - 20) - 0.9 * np.exp(-depth / 6)
                + 0.6 * np.tanh((age - 12) / 3) + region_eff + 0.25 * wave * (wind > 25))
    claims = rng.poisson(exposure * np.exp(log_rate))
    X = np.column_stack([wave, wind, depth, age, np.eye(REGIONS)[region]]).astype(np.float32)
    return X, exposure.astype(np.float32), claims.astype(np.float32)


def poisson_deviance(y, mu):
    y, mu = np.asarray(y, float), np.asarray(mu, float)
    term = np.where(y > 0, y * np.log(np.where(y > 0, y, 1) / mu), 0.0)
    return 2 * np.sum(term - (y - mu))
