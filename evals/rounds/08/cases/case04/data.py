import csv
import os

import numpy as np

FEATURES = ["age", "income", "debt_ratio", "n_accounts", "utilization", "tenure", "late_90d", "inquiries"]


def _true_logit(X):
    age, inc, dr, nacc, util, ten, late, inq = X.T
    return (
        1.2 * np.sin(1.5 * age)
        + 0.9 * inc
        - 1.4 * dr ** 2
        + 0.6 * np.tanh(2 * nacc)
        - 1.6 * (util > 0.3)
        + 0.5 * ten
        - 1.1 * np.abs(late)
        + 0.3 * inq
    )


def generate(path, n=6000, seed=7, dup_frac=0.15):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, len(FEATURES))).round(4)
    p = 1 / (1 + np.exp(-(_true_logit(X) + 0.8)))
    y = (rng.random(n) < p).astype(int)
    # the upstream join duplicates some applications
    dup = rng.choice(n, size=int(dup_frac * n), replace=False)
    X = np.concatenate([X, X[dup]])
    y = np.concatenate([y, y[dup]])
    order = rng.permutation(len(y))
    X, y = X[order], y[order]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(FEATURES + ["default"])
        for row, lab in zip(X, y):
            w.writerow([f"{v:.4f}" for v in row] + [lab])


def load(path):
    with open(path) as fh:
        rows = list(csv.reader(fh))
    header, body = rows[0], rows[1:]
    arr = np.array(body, dtype=np.float64)
    return arr[:, :-1].astype(np.float32), arr[:, -1].astype(np.int64), header[:-1]


def drop_duplicate_rows(X, y):
    """Remove exact duplicate applications, keeping the first occurrence."""
    X_unique, first_idx = np.unique(X, axis=0, return_index=True)
    keep = np.sort(first_idx)  # keep original row order
    return X_unique, y[keep]


def split(X, y, val_frac=0.2, seed=0):
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(y))
    n_val = int(val_frac * len(y))
    return (X[idx[n_val:]], y[idx[n_val:]]), (X[idx[:n_val]], y[idx[:n_val]])
