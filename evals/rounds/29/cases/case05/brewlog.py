import csv
import os

import numpy as np

HEADER = ["honey_ratio", "strain", "ferm_temp", "primary_days", "final_gravity",
          "ph", "nutrients", "age_months", "grade"]


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    honey = rng.uniform(0.2, 0.45, n)
    strain = rng.integers(0, 4, n)
    temp = rng.normal(18, 3, n)
    days = rng.integers(10, 60, n)
    fg = 0.995 + honey * 0.08 * rng.uniform(0.1, 1.0, n)
    ph = rng.normal(3.7, 0.3, n)
    nutr = rng.integers(0, 4, n)
    age = rng.integers(0, 24, n)
    quality = (-0.25 * (temp - 17) ** 2 + 0.12 * age - 3.0 * np.abs(ph - 3.6)
               + 1.5 * (nutr >= 2) + np.array([0.0, 0.8, -0.5, 0.3])[strain]
               - 40 * np.maximum(fg - 1.02, 0) + 0.04 * days
               + rng.logistic(0, 0.5, n))
    grade = np.digitize(quality, np.quantile(quality, [0.1, 0.35, 0.7, 0.92])) + 1
    return np.stack([honey, strain, temp, days, fg, ph, nutr, age, grade], 1)


def write_csv(path, n=3000, seed=0):
    rows = simulate(n, seed)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        for r in rows:
            w.writerow([f"{v:.5g}" for v in r[:-1]] + [int(r[-1])])


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return rows
