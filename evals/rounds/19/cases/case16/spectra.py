import numpy as np
import torch
from torch.utils.data import Dataset


def simulate(n, bands, rng):
    wl = np.linspace(400, 870, bands)
    level = rng.integers(0, 5, size=n)
    fresh = level / 4.0
    spec = np.empty((n, bands))
    for i in range(n):
        f = fresh[i] + rng.normal(0, 0.05)
        base = 40 + 25 * np.exp(-((wl - 640) / 90) ** 2)                     # bright red flesh
        met = f * 18 * np.exp(-((wl - 505) / 35) ** 2)                       # metmyoglobin hump
        red_loss = -f * 14 * np.exp(-((wl - 580) / 25) ** 2)
        blue = f * 6 * np.exp(-(wl - 400) / 60)
        gain = rng.uniform(0.8, 1.25)                                        # lamp/distance
        spec[i] = gain * (base + met + red_loss + blue) + rng.normal(0, 1.0, bands)
    return spec.astype(np.float32), level.astype(np.int64)


class SpectraDataset(Dataset):
    """Reflectance spectra (percent) with optional per-band standardization."""

    def __init__(self, spectra, levels, stats=None):
        self.x = torch.from_numpy(spectra)
        self.y = torch.from_numpy(levels)
        self.stats = stats

    @staticmethod
    def fit_stats(spectra):
        # brightness-normalise first, then per-band z-score
        s = spectra / spectra.mean(axis=1, keepdims=True)
        return s.mean(0), s.std(0) + 1e-6

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        x = self.x[i]
        if self.stats is not None:
            mu, sd = self.stats
            x = x / x.mean()
            x = (x - torch.as_tensor(mu)) / torch.as_tensor(sd)
        return x, self.y[i]
