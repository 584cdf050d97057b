"""Synthetic housing table: price (in $1000) as a linear function of a few attributes plus noise."""
import os

import numpy as np

COLUMNS = ["sqft", "bedrooms", "bathrooms", "age", "lot_size", "dist_center", "price"]


def generate(path, n=1500, seed=11):
    rng = np.random.default_rng(seed)
    sqft = rng.normal(1800, 450, n)
    bedrooms = rng.integers(1, 6, n).astype(float)
    bathrooms = rng.integers(1, 4, n).astype(float)
    age = rng.uniform(0, 80, n)
    lot_size = rng.gamma(3.0, 1500.0, n)
    dist_center = rng.uniform(0.5, 30, n)
    price = (
        40.0
        + 0.15 * sqft
        + 12.0 * bedrooms
        + 18.0 * bathrooms
        - 0.9 * age
        + 0.004 * lot_size
        - 4.5 * dist_center
        + rng.normal(0, 10.0, n)
    )
    table = np.column_stack([sqft, bedrooms, bathrooms, age, lot_size, dist_center, price])
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.savetxt(path, table, delimiter=",", header=",".join(COLUMNS), comments="", fmt="%.4f")


def load(path="data/houses.csv"):
    if not os.path.exists(path):
        generate(path)
    table = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float32)
    return table[:, :-1], table[:, -1]
