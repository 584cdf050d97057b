"""Hourly building load with weather and calendar features (simulated)."""
import os

import numpy as np


def simulate_hours(n_hours=6000, seed=21):
    rng = np.random.default_rng(seed)
    hour = np.arange(n_hours) % 24
    day = (np.arange(n_hours) // 24) % 7
    season = np.sin(2 * np.pi * np.arange(n_hours) / (24 * 365))
    temp = 12 + 10 * season + 6 * np.sin(2 * np.pi * (hour - 9) / 24) + rng.normal(0, 2.0, n_hours)
    humidity = np.clip(60 - 1.2 * (temp - 12) + rng.normal(0, 8, n_hours), 10, 100)
    weekend = (day >= 5).astype(float)
    occupancy = (1 - weekend) * np.exp(-0.5 * ((hour - 13) / 3.5) ** 2)
    load_kwh = (
        120
        + 2.2 * (temp - 18) ** 2 / 4
        + 0.3 * humidity
        + 160 * occupancy
        - 25 * weekend
        + rng.normal(0, 8, n_hours)
    )
    x = np.column_stack([
        temp, humidity, np.sin(2 * np.pi * hour / 24), np.cos(2 * np.pi * hour / 24),
        weekend, np.sin(2 * np.pi * day / 7), np.cos(2 * np.pi * day / 7),
    ]).astype(np.float32)
    return x, load_kwh.astype(np.float32)


def load(path="data/hourly_load.npz"):
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        x, y = simulate_hours()
        np.savez(path, x=x, y=y)
    d = np.load(path)
    return d["x"], d["y"]


class Standardizer:
    def fit(self, a):
        self.mean = a.mean(axis=0)
        self.std = a.std(axis=0) + 1e-8
        return self

    def transform(self, a):
        return (a - self.mean) / self.std

    def inverse(self, a):
        return a * self.std + self.mean
