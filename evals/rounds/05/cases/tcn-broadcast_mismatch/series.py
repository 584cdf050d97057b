import numpy as np
import torch
from torch.utils.data import Dataset


def vibration_series(n, seed):
    """Several drifting periodic components, slow trend, sensor noise, a few spikes."""
    rng = np.random.default_rng(seed)
    t = np.arange(n, dtype=np.float64)
    x = np.zeros(n)
    for period, amp in [(24.0, 1.0), (7.3, 0.6), (51.0, 0.8)]:
        drift = np.cumsum(rng.normal(0, 0.002, n))
        x += amp * np.sin(2 * np.pi * t / period + drift)
    x += 0.3 * np.sin(2 * np.pi * t / 400.0)
    x += rng.normal(0, 0.1, n)
    spikes = rng.choice(n, size=n // 500, replace=False)
    x[spikes] += rng.normal(0, 3, len(spikes))
    return x.astype(np.float32)


class Windows(Dataset):
    """(window of `context` past values) -> next value."""

    def __init__(self, series, context):
        self.series = torch.from_numpy(series)
        self.context = context

    def __len__(self):
        return len(self.series) - self.context

    def __getitem__(self, i):
        window = self.series[i:i + self.context]
        target = self.series[i + self.context]
        return window.unsqueeze(0), target
