"""Synthetic hail portfolio.

Rating factors (all roughly standardised already, as they would be after
the pricing team's usual binning):
  roof_age, roof_slope, hail_days (regional climatology), elevation,
  dist_to_coast, and a 4-level roof material code (one-hot).
"""
import numpy as np

MATERIALS = ["asphalt", "metal", "tile", "wood"]


def simulate_portfolio(n, seed=0):
    rng = np.random.default_rng(seed)
    roof_age = rng.normal(size=n)
    roof_slope = rng.normal(size=n)
    hail_days = rng.normal(size=n)
    elevation = rng.normal(size=n)
    coast = rng.normal(size=n)
    material = rng.integers(0, len(MATERIALS), size=n)
    onehot = np.eye(len(MATERIALS))[material]

    mat_effect = np.array([0.0, -0.6, 0.4, 0.7])[material]
    log_rate = (-0.2 + 0.7 * hail_days + 0.35 * roof_age - 0.25 * roof_slope
                + 0.3 * np.tanh(elevation) * hail_days + mat_effect
                - 0.2 * coast ** 2)
    exposure = rng.uniform(0.05, 1.0, size=n)
    counts = rng.poisson(np.exp(log_rate) * exposure)

    X = np.column_stack([roof_age, roof_slope, hail_days, elevation, coast, onehot])
    return X.astype(np.float32), exposure.astype(np.float32), counts.astype(np.float32)
