import numpy as np


def fit_stats(X):
    return {"mean": X.mean(0).tolist(), "std": (X.std(0) + 1e-6).tolist()}


def standardize(X, stats):
    return ((X - np.asarray(stats["mean"], np.float32)) / np.asarray(stats["std"], np.float32)).astype(np.float32)


def to_unit_range(X, lo=None, hi=None):
    """Min-max scale columns into [0, 1] (used for plots in the notebook)."""
    lo = X.min(0) if lo is None else lo
    hi = X.max(0) if hi is None else hi
    return ((X - lo) / (hi - lo + 1e-6)).astype(np.float32)
