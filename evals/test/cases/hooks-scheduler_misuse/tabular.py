"""Synthetic credit-risk style table: 24 numeric features, 3 risk tiers."""
import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

FEATURE_NAMES = [f"f{i:02d}" for i in range(24)]


def synthesize(n_rows, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, len(FEATURE_NAMES))).astype(np.float32)
    # heterogeneous units, as in the raw export
    scales = np.geomspace(0.5, 40.0, len(FEATURE_NAMES)).astype(np.float32)
    offsets = np.linspace(-5.0, 120.0, len(FEATURE_NAMES)).astype(np.float32)
    z = X.copy()
    score = (
        1.5 * np.tanh(z[:, 0] * z[:, 1])
        + 0.7 * z[:, 2] - 0.5 * z[:, 3]
        + 0.8 * z[:, 4] ** 2
        - 0.9 * np.abs(z[:, 5] + z[:, 6])
        + 0.6 * z[:, 7]
        + rng.normal(scale=0.1, size=n_rows)
    )
    cut = np.quantile(score, [1 / 3, 2 / 3])
    y = np.digitize(score, cut).astype(np.int64)
    X = X * scales + offsets
    return X, y


class Standardizer:
    def fit(self, X):
        self.mean_ = X.mean(axis=0)
        self.std_ = X.std(axis=0) + 1e-6
        return self

    def transform(self, X):
        return (X - self.mean_) / self.std_


def get_loaders(n_rows, batch_size, seed, val_frac=0.2):
    X, y = synthesize(n_rows, seed)
    rng = np.random.default_rng(seed + 1)
    order = rng.permutation(n_rows)
    n_val = int(n_rows * val_frac)
    val_rows, train_rows = order[:n_val], order[n_val:]

    scaler = Standardizer().fit(X[train_rows])
    X = scaler.transform(X).astype(np.float32)

    def as_ds(rows):
        return TensorDataset(torch.from_numpy(X[rows]), torch.from_numpy(y[rows]))

    g = torch.Generator().manual_seed(seed)
    train_loader = DataLoader(as_ds(train_rows), batch_size=batch_size, shuffle=True, generator=g)
    val_loader = DataLoader(as_ds(val_rows), batch_size=512)
    return train_loader, val_loader
