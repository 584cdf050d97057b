import numpy as np
import torch
from torch.utils.data import Dataset

from .simulate import simulate_sessions
from .scaling import SessionScaler


class WindowSet(Dataset):
    def __init__(self, windows, labels):
        self.x = torch.from_numpy(windows).unsqueeze(1)   # [N, 1, T]
        self.y = torch.from_numpy(labels)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def build_splits(cfg):
    rng = np.random.default_rng(cfg["seed"] + 1000)
    n_tr, n_va = cfg["n_train_sessions"], cfg["n_val_sessions"]
    x, y, sid = simulate_sessions(n_tr + n_va, cfg["windows_per_session"],
                                  cfg["window_len"], cfg["episode_rate"], rng)
    tr = sid < n_tr
    va = ~tr

    scaler = SessionScaler().fit(x[tr], sid[tr])
    x_tr = scaler.transform(x[tr], sid[tr])
    x_va = scaler.transform(x[va], sid[va])
    return WindowSet(x_tr, y[tr]), WindowSet(x_va, y[va])
