import json

import numpy as np


class FeatureScaler:
    """Column-wise standardisation that can be stored next to the model."""

    def __init__(self, mean=None, std=None):
        self.mean = None if mean is None else np.asarray(mean, np.float32)
        self.std = None if std is None else np.asarray(std, np.float32)

    def fit(self, x):
        self.mean = x.mean(0)
        self.std = x.std(0) + 1e-6
        return self

    def transform(self, x):
        return ((x - self.mean) / self.std).astype(np.float32)

    def to_json(self, path):
        with open(path, "w") as f:
            json.dump({"mean": self.mean.tolist(), "std": self.std.tolist()}, f, indent=1)

    @classmethod
    def from_json(cls, path):
        with open(path) as f:
            d = json.load(f)
        return cls(d["std"], d["mean"])
