import numpy as np
import torch
from torch.utils.data import Dataset


def _pulse(t, centre, width, amp):
    return amp * np.exp(-0.5 * ((t - centre) / width) ** 2)


def synth_scans(n, flaw_rate=0.12, length=160, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(length, dtype=np.float32)
    X = np.zeros((n, length), dtype=np.float32)
    y = (rng.random(n) < flaw_rate).astype(np.float32)
    for i in range(n):
        gain = rng.uniform(0.7, 1.3)
        back = rng.uniform(125, 145)
        sig = _pulse(t, rng.uniform(8, 12), 3.0, 1.0) + _pulse(t, back, 3.5, 0.6)
        # grain noise: a handful of tiny scatterers everywhere
        for c in rng.uniform(15, back - 5, rng.integers(3, 8)):
            sig += _pulse(t, c, 1.5, rng.uniform(0.02, 0.12))
        if y[i]:
            sig += _pulse(t, rng.uniform(30, back - 15), rng.uniform(2.5, 4.0), rng.uniform(0.25, 0.5))
        sig = gain * sig + rng.normal(0, 0.03, length)
        X[i] = np.abs(sig)
    return X, y


class ScanSet(Dataset):
    def __init__(self, X, y):
        self.X = torch.from_numpy(X).unsqueeze(1)
        self.y = torch.from_numpy(y)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.X[i], self.y[i]
