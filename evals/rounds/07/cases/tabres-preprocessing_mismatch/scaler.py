import json

import numpy as np


class Standardizer:
    def __init__(self, mean=None, std=None):
        self.mean = None if mean is None else np.asarray(mean, dtype=np.float32)
        self.std = None if std is None else np.asarray(std, dtype=np.float32)

    def fit(self, X):
        self.mean = X.mean(0)
        self.std = X.std(0) + 1e-6
        return self

    def transform(self, X):
        return ((X - self.mean) / self.std).astype(np.float32)

    def save(self, path):
        with open(path, "w") as f:
            json.dump({"mu": self.mean.tolist(), "sigma": self.std.tolist()}, f, indent=1)


def load_scaler(path):
    with open(path) as f:
        stats = json.load(f)
    return Standardizer(mean=stats.get("mean", 0.0), std=stats.get("std", 1.0))
