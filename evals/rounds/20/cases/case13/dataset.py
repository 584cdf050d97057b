import numpy as np
import torch
from torch.utils.data import Dataset


def session_stats(X, sessions):
    return {s: (X[sessions == s].mean(), X[sessions == s].std() + 1e-6) for s in np.unique(sessions)}


class SwallowWindows(Dataset):
    """Windows z-scored per recording session.

    `stats` maps session id -> (mean, std). If not given it is computed from X.
    """

    def __init__(self, X, y, sessions, stats=None):
        self.stats = stats if stats is not None else session_stats(X, sessions)
        self.X, self.y, self.sessions = X, y, sessions

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        s = self.sessions[i]
        mu, sd = self.stats.get(s, self.global_stats())
        x = (self.X[i] - mu) / sd
        return torch.from_numpy(x.astype(np.float32))[None], torch.tensor(self.y[i])

    def global_stats(self):
        mus, sds = zip(*self.stats.values())
        return float(np.mean(mus)), float(np.mean(sds))
