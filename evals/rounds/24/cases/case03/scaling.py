import numpy as np


class NightScaler:
    """Robust per-night scaling: median and inter-quartile range of every night.

    Statistics for a night are computed from all of that night's windows, so the
    transform only needs the night ids of the windows being scaled.
    """

    def __init__(self):
        self.global_center = 0.0
        self.global_scale = 1.0

    def fit(self, X):
        self.global_center = float(np.median(X))
        q75, q25 = np.percentile(X, [75, 25])
        self.global_scale = float(q75 - q25) + 1e-6
        return self

    def transform(self, X, night=None):
        if night is None:
            return (X - self.global_center) / self.global_scale
        out = np.empty_like(X)
        for n in np.unique(night):
            m = night == n
            center = np.median(X[m])
            q75, q25 = np.percentile(X[m], [75, 25])
            out[m] = (X[m] - center) / (q75 - q25 + 1e-6)
        return out
