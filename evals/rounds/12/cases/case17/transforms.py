"""Feature transforms, composable like torchvision's."""
import numpy as np


class Compose:
    def __init__(self, steps):
        self.steps = steps

    def __call__(self, x):
        for s in self.steps:
            x = s(x)
        return x


class RandomVTLN:
    """Vocal tract length perturbation: scale all formants by a random factor."""

    def __init__(self, low=0.92, high=1.08, seed=0):
        self.low, self.high = low, high
        self.rng = np.random.default_rng(seed)

    def __call__(self, x):
        x = x.copy()
        x[:, :3] *= self.rng.uniform(self.low, self.high)
        return x


class HzToBark:
    """Traunmüller Bark scale for the formant columns."""

    def __call__(self, x):
        x = x.copy()
        f = x[:, :3]
        x[:, :3] = 26.81 * f / (1960.0 + f) - 0.53
        return x


class Standardize:
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def __call__(self, x):
        return ((x - self.mean) / self.std).astype(np.float32)
