import numpy as np

N_REGIONS = 12


def make_portfolio(n, seed):
    rng = np.random.default_rng(seed)
    region = rng.integers(0, N_REGIONS, n)
    region_rate = np.linspace(-2.8, -1.2, N_REGIONS)[np.random.default_rng(0).permutation(N_REGIONS)]
    area = rng.lognormal(7.5, 0.6, n)                   # m^2 of glass
    glass = rng.integers(0, 3, n)                       # float / toughened / polycarbonate
    pitch = rng.uniform(10, 35, n)
    hail_idx = rng.gamma(2.0, 1.0, n)
    exposure = rng.uniform(0.1, 1.0, n)
    log_mu = (region_rate[region] + 0.5 * (np.log(area) - 7.5) + np.array([0.4, -0.3, -0.8])[glass]
              - 0.02 * (pitch - 22) + 0.35 * np.sqrt(hail_idx) * (glass == 0) + 0.15 * hail_idx)
    counts = rng.poisson(exposure * np.exp(log_mu))
    X = np.stack([np.log(area) - 7.5, glass == 0, glass == 1, glass == 2, (pitch - 22) / 7,
                  hail_idx - 2], 1).astype(np.float32)
    return X, region.astype(np.int64), exposure.astype(np.float32), counts.astype(np.float32)
