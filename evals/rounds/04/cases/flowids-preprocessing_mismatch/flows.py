"""Synthetic flow records. Counters are lognormal, a few fields are bounded."""
import numpy as np
import torch
from torch.utils.data import Dataset

CLASSES = ["benign", "scan", "dos", "exfil"]
PRIORS = [0.85, 0.07, 0.05, 0.03]
FEATURES = ["duration_ms", "bytes_out", "bytes_in", "packets", "dst_ports", "syn_ratio", "mean_iat_ms", "payload_entropy"]

# per class: log-mean of the six counters (+ bounded syn_ratio / entropy means)
_LOGMU = {
    0: [6.0, 8.0, 9.5, 3.0, 0.3, 4.0],
    1: [3.0, 5.5, 4.5, 2.0, 3.5, 1.5],
    2: [5.0, 10.5, 5.0, 6.0, 0.2, 0.5],
    3: [7.5, 12.0, 6.0, 4.5, 0.2, 3.5],
}
_BOUNDED = {0: (0.15, 0.55), 1: (0.9, 0.3), 2: (0.7, 0.2), 3: (0.1, 0.9)}


def synth(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.choice(len(CLASSES), size=n, p=PRIORS)
    X = np.empty((n, len(FEATURES)), dtype=np.float64)
    for c in range(len(CLASSES)):
        idx = np.where(y == c)[0]
        mu = np.array(_LOGMU[c])
        counters = np.exp(mu + 1.1 * rng.standard_normal((len(idx), 6)))
        syn = np.clip(_BOUNDED[c][0] + 0.2 * rng.standard_normal(len(idx)), 0, 1)
        ent = np.clip(_BOUNDED[c][1] + 0.2 * rng.standard_normal(len(idx)), 0, 1)
        X[idx] = np.column_stack([counters[:, 0], counters[:, 1], counters[:, 2], counters[:, 3],
                                  counters[:, 4], syn, counters[:, 5], ent])
    return X, y


COUNTER_COLS = [0, 1, 2, 3, 4, 6]


def log_counters(X):
    X = X.copy()
    X[:, COUNTER_COLS] = np.log1p(X[:, COUNTER_COLS])
    return X


def fit_stats(X):
    Z = log_counters(X)
    return Z.mean(0), Z.std(0) + 1e-6


class FlowDataset(Dataset):
    def __init__(self, X, y, stats, log_scale=True, augment=False):
        Z = log_counters(X) if log_scale else X.copy()
        mean, std = stats
        self.X = torch.tensor((Z - mean) / std, dtype=torch.float32)
        self.y = torch.tensor(y, dtype=torch.long)
        self.augment = augment

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        x = self.X[i]
        if self.augment:
            x = x + 0.05 * torch.randn_like(x)
        return x, self.y[i]
