"""Synthetic glass-harp measurements.

Columns: rim diameter (mm), wall height (mm), wall thickness (mm),
fill fraction (0..1), glass density (kg/m^3), room temperature (C).
"""
import numpy as np

FEATURES = ["rim_mm", "height_mm", "wall_mm", "fill", "density", "temp_c"]


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    rim = rng.uniform(55, 110, n)
    height = rng.uniform(70, 160, n)
    wall = rng.uniform(0.8, 3.5, n)
    fill = rng.uniform(0.0, 0.9, n)
    density = rng.uniform(2300, 3100, n)
    temp = rng.uniform(12, 30, n)
    # thin shell: f ~ t / R^2 * sqrt(E/rho), lowered by added water mass
    f0 = 2.2e6 * wall / (rim / 2) ** 2 * np.sqrt(2500.0 / density)
    f0 = f0 * (1.0 - 0.55 * fill ** 1.5) * (1.0 - 0.0009 * (height - 110))
    f0 = f0 * (1.0 + 0.0004 * (temp - 20))
    y = np.log2(f0) + rng.normal(0, 0.03, n)
    X = np.stack([rim, height, wall, fill, density, temp], 1)
    return X.astype(np.float32), y.astype(np.float32)


def splits(seed=7):
    X, y = simulate(3000, seed)
    return (X[:2400], y[:2400]), (X[2400:], y[2400:])
