"""Per-night standardisation.

Each night is scaled by the mean / std of all its own samples, which removes
the phone gain and DC offset. Statistics are keyed by night id.
"""
import numpy as np


class NightScaler:
    def __init__(self):
        self.stats = {}

    def fit(self, x, nights):
        for k in np.unique(nights):
            block = x[nights == k]
            self.stats[int(k)] = (float(block.mean()), float(block.std()) + 1e-6)
        self.global_ = (float(x.mean()), float(x.std()) + 1e-6)
        return self

    def transform(self, x, nights):
        out = np.empty_like(x)
        for i, k in enumerate(nights):
            mu, sd = self.stats.get(int(k), self.global_)
            out[i] = (x[i] - mu) / sd
        return out
