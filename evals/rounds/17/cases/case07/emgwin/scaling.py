"""Per-subject, per-channel standardization."""
import numpy as np


def subject_stats(X, subjects):
    stats = {}
    for s in np.unique(subjects):
        xs = X[subjects == s]
        stats[int(s)] = (xs.mean(axis=(0, 2)), xs.std(axis=(0, 2)) + 1e-6)
    # pooled fallback for recordings without a calibration
    stats["pooled"] = (X.mean(axis=(0, 2)), X.std(axis=(0, 2)) + 1e-6)
    return stats


def apply_stats(X, subjects, stats):
    out = np.empty_like(X)
    for s in np.unique(subjects):
        mean, std = stats.get(int(s), stats["pooled"])
        rows = subjects == s
        out[rows] = (X[rows] - mean[None, :, None]) / std[None, :, None]
    return out
