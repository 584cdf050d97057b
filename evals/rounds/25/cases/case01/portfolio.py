"""Synthetic apiary policy portfolio."""
import numpy as np


def make_portfolio(n, n_regions, rng):
    region = rng.integers(0, n_regions, n)
    region_risk = np.linspace(-1.0, 1.0, n_regions)[rng.permutation(n_regions)]
    hives = rng.integers(2, 120, n)
    months = rng.integers(1, 13, n)
    exposure = hives * months / 12.0                      # hive-years
    windbreak = rng.random(n) < 0.4                        # hedges / walls around the site
    elevation = rng.uniform(0, 1.5, n)                     # km
    storm_days = rng.poisson(4 + 6 * elevation)            # in the cover period, per year
    log_rate = (-3.2 + region_risk[region] - 0.8 * windbreak
                + 0.12 * storm_days + 0.5 * elevation ** 2)
    claims = rng.poisson(np.exp(log_rate) * exposure)
    feats = np.stack([windbreak.astype(float), elevation, storm_days / 10.0,
                      np.log(hives) / 5.0], axis=1).astype(np.float32)
    return feats, region, exposure.astype(np.float32), claims.astype(np.float32)
