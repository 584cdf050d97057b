import numpy as np


class SessionScaler:
    """Per-session z-scoring of raw EMG windows (no labels involved)."""

    def __init__(self, eps=1e-6):
        self.eps = eps
        self.stats = {}
        self.global_stats = (0.0, 1.0)

    def fit(self, x, sessions):
        for s in np.unique(sessions):
            seg = x[sessions == s]
            self.stats[int(s)] = (float(seg.mean()), float(seg.std()))
        self.global_stats = (float(x.mean()), float(x.std()))
        return self

    def transform(self, x, sessions):
        out = np.empty_like(x)
        for s in np.unique(sessions):
            m = sessions == s
            mean, std = self.stats.get(int(s), self.global_stats)
            out[m] = (x[m] - mean) / (std + self.eps)
        return out
