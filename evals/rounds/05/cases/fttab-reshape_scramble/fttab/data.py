import numpy as np
import torch
from torch.utils.data import TensorDataset

FEATURES = ["amount_log", "merchant_risk", "hour_sin", "hour_cos", "txn_velocity_1h",
            "txn_velocity_24h", "distance_home", "card_age_days", "foreign", "chargebacks_90d"]


def _simulate(n, rng):
    X = rng.normal(size=(n, len(FEATURES)))
    X[:, 8] = (rng.random(n) < 0.2).astype(float) * 2 - 1            # foreign: +-1
    amount, risk, vel1, dist, age, foreign = X[:, 0], X[:, 1], X[:, 4], X[:, 6], X[:, 7], X[:, 8]
    logit = (1.5 * amount * risk                      # large amounts at risky merchants
             + 1.2 * np.maximum(vel1, 0) * (foreign > 0)
             - 1.0 * np.tanh(age) * dist
             + 0.8 * X[:, 2] * X[:, 5]
             - 0.7)
    y = (rng.random(n) < 1 / (1 + np.exp(-3 * logit))).astype(np.int64)
    return X.astype(np.float32), y


def make_datasets(n_rows, val_rows, seed):
    rng = np.random.default_rng(seed)
    X, y = _simulate(n_rows + val_rows, rng)
    mean, std = X[:n_rows].mean(0), X[:n_rows].std(0) + 1e-6
    X = (X - mean) / std
    tr = TensorDataset(torch.from_numpy(X[:n_rows]), torch.from_numpy(y[:n_rows]))
    va = TensorDataset(torch.from_numpy(X[n_rows:]), torch.from_numpy(y[n_rows:]))
    return tr, va
