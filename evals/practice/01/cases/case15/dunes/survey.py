import numpy as np

YEARS = 10


def simulate(n_dunes, rng):
    """Migration ~ wind power / height, with dune-specific roughness, plus noise."""
    height = rng.uniform(3, 25, n_dunes)
    rough = rng.uniform(0.7, 1.3, n_dunes)
    wind = rng.gamma(4.0, 1.0, (n_dunes, YEARS + 1))           # seasonal sand-drift potential
    direction = rng.normal(0, 0.3, (n_dunes, YEARS + 1))         # rad from prevailing
    mig = 60 * wind * np.cos(direction) / (height[:, None] * rough[:, None]) + rng.normal(0, 0.8, (n_dunes, YEARS + 1))
    cloudy = rng.random((n_dunes, YEARS + 1)) < 0.12
    mig_obs = np.where(cloudy, np.nan, mig)
    return height, wind, direction, mig_obs


def rows(height, wind, direction, mig, lags=3):
    X, y = [], []
    for d in range(len(height)):
        for t in range(lags, mig.shape[1]):
            past = mig[d, t - lags:t]
            X.append(np.concatenate([past, [wind[d, t], np.cos(direction[d, t]), height[d], 1 / height[d]]]))
            y.append(mig[d, t])
    return np.array(X, np.float32), np.array(y, np.float32)


def drop_missing(X, y):
    """Remove rows with a cloudy year in the inputs or the target."""
    ok = np.isfinite(X).all(1) & np.isfinite(y)
    return X[ok], y[ok]
