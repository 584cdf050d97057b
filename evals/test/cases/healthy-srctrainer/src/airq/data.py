from dataclasses import dataclass

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

FEATURES = ["raw_pm", "humidity", "temperature", "wind", "pressure", "hour_sin", "hour_cos"]


def simulate_readings(n, seed):
    rng = np.random.default_rng(seed)
    hour = rng.integers(0, 24, n)
    humidity = np.clip(rng.normal(60, 18, n), 10, 99)
    temperature = rng.normal(14, 7, n)
    wind = rng.gamma(2.0, 1.5, n)
    pressure = rng.normal(1013, 8, n)
    traffic = 1.0 + 0.8 * np.exp(-0.5 * ((hour - 8) / 2) ** 2) + 0.7 * np.exp(-0.5 * ((hour - 18) / 2.5) ** 2)
    true_pm = np.exp(rng.normal(2.4, 0.5, n)) * traffic / (1 + 0.25 * wind) * (1 + 0.004 * (1013 - pressure))
    growth = 1 + 0.25 * (humidity / 100) ** 4 / (1 - 0.9 * humidity / 100)
    raw_pm = true_pm * growth * rng.normal(1.0, 0.05, n) + rng.normal(0, 1.0, n)
    X = np.column_stack([raw_pm, humidity, temperature, wind, pressure,
                         np.sin(2 * np.pi * hour / 24), np.cos(2 * np.pi * hour / 24)])
    return X.astype(np.float32), true_pm.astype(np.float32)


@dataclass
class Scaler:
    mean: np.ndarray
    std: np.ndarray

    @classmethod
    def fit(cls, a):
        return cls(a.mean(axis=0), a.std(axis=0) + 1e-6)

    def transform(self, a):
        return (a - self.mean) / self.std

    def inverse(self, a):
        return a * self.std + self.mean


def build_loaders(n_train, n_val, n_test, batch_size, seed):
    X, y = simulate_readings(n_train + n_val + n_test, seed)
    y = np.log1p(y)
    x_scaler = Scaler.fit(X[:n_train])
    y_scaler = Scaler.fit(y[:n_train])
    Xs, ys = x_scaler.transform(X).astype(np.float32), y_scaler.transform(y).astype(np.float32)

    def loader(lo, hi, shuffle):
        ds = TensorDataset(torch.from_numpy(Xs[lo:hi]), torch.from_numpy(ys[lo:hi]))
        return DataLoader(ds, batch_size=batch_size if shuffle else 1024, shuffle=shuffle,
                          generator=torch.Generator().manual_seed(seed) if shuffle else None)

    a, b = n_train, n_train + n_val
    return loader(0, a, True), loader(a, b, False), loader(b, None, False), y_scaler
