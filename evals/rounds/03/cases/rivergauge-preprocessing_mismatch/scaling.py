import numpy as np


class Standardizer:
    """Column-wise z-scoring; statistics come from the training split only."""

    def fit(self, a):
        self.mean_ = a.mean(axis=0, keepdims=True)
        self.std_ = a.std(axis=0, keepdims=True) + 1e-8
        return self

    def transform(self, a):
        return ((a - self.mean_) / self.std_).astype(np.float32)

    def inverse_transform(self, a):
        return (a * self.std_ + self.mean_).astype(np.float32)
