import numpy as np
import torch
from torch.utils.data import Dataset

N_USERS = 8
FS = 64
T = 256


def user_profiles(rng):
    return {
        "f_tremor": rng.uniform(5.0, 11.0, N_USERS),
        "axis_ratio": rng.uniform(0.3, 1.0, N_USERS),
        "drift": rng.uniform(0.05, 0.4, N_USERS),
    }


def trace(u, prof, rng):
    t = np.arange(T) / FS
    f = prof["f_tremor"][u] * rng.uniform(0.97, 1.03)
    amp = rng.uniform(0.5, 1.5)
    x = amp * np.sin(2 * np.pi * f * t + rng.uniform(0, 6.3))
    y = amp * prof["axis_ratio"][u] * np.sin(2 * np.pi * f * t + rng.uniform(0, 6.3))
    walk = np.cumsum(rng.normal(0, prof["drift"][u], (2, T)), axis=1) / np.sqrt(T)
    sig = np.stack([x, y]) + walk + rng.normal(0, 0.6, (2, T))
    return sig


def spectrum(sig):
    mag = np.abs(np.fft.rfft(sig * np.hanning(T), axis=1))[:, 1:]
    return np.log1p(mag).astype(np.float32).reshape(-1)


class JitterSet(Dataset):
    def __init__(self, n, prof, seed):
        rng = np.random.default_rng(seed)
        self.users = rng.integers(0, N_USERS, n)
        self.feats = np.stack([spectrum(trace(u, prof, rng)) for u in self.users])

    def __len__(self):
        return len(self.users)

    def __getitem__(self, i):
        return torch.from_numpy(self.feats[i]), torch.tensor([self.users[i]])
