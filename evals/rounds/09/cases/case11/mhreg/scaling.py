"""Per-head standardisation of the targets, saved next to the checkpoint."""
import json
import os

import numpy as np


class TargetScaler:
    def __init__(self, names, mean=None, std=None):
        self.names = list(names)
        self.mean = None if mean is None else np.asarray(mean, dtype=np.float32)
        self.std = None if std is None else np.asarray(std, dtype=np.float32)

    def fit(self, y):
        self.mean = y.mean(0).astype(np.float32)
        self.std = (y.std(0) + 1e-6).astype(np.float32)
        return self

    def transform(self, y):
        return (y - self.mean) / self.std

    def inverse(self, z):
        return z * self.std + self.mean

    def save(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        payload = {n: {"mean": float(m), "std": float(s)} for n, m, s in zip(self.names, self.mean, self.std)}
        with open(path, "w") as fh:
            json.dump(payload, fh, indent=2, sort_keys=True)

    @classmethod
    def load(cls, path):
        with open(path) as fh:
            payload = json.load(fh)
        names = list(payload)
        return cls(names, [payload[n]["mean"] for n in names], [payload[n]["std"] for n in names])
