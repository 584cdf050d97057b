import numpy as np


def climatology(n_counties):
    """Fixed per-county climate vector: hail days, mean gust, tornado index, elevation."""
    rng = np.random.default_rng(2024)
    return rng.normal(0, 1, (n_counties, 4)).astype(np.float32)


def policies(n, n_counties, seed):
    rng = np.random.default_rng(seed)
    clim = climatology(n_counties)
    county = rng.integers(n_counties, size=n)
    herd = rng.integers(3, size=n)                   # cow-calf, stocker, dairy
    fence = rng.uniform(0, 1, n)                     # fence condition score
    shelter = rng.uniform(0, 1, n)
    hail = rng.gamma(2.0, 1.0, n)
    wind = rng.normal(0, 1, n)
    head = rng.integers(20, 800, size=n)
    years = rng.uniform(0.25, 1.0, n)
    exposure = head / 100.0 * years
    log_rate = (-1.3 + 0.6 * clim[county, 0] + 0.35 * clim[county, 2] + 0.25 * np.log1p(hail)
                + 0.3 * wind - 0.8 * shelter - 0.5 * fence + np.array([0.0, 0.3, -0.2])[herd])
    claims = rng.poisson(np.exp(log_rate) * exposure)
    X = np.column_stack([np.eye(3)[herd], fence, shelter, np.log1p(hail), wind]).astype(np.float32)
    return X, county, exposure.astype(np.float32), claims.astype(np.float32), clim
