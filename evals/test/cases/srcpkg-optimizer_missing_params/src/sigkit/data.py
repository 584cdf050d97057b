import os

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

STATE_SEED = 20240611


def make_signals(n, length, n_classes, seed):
    """Synthesize accelerometer-like windows.

    Every machine state has a base rotation frequency and a characteristic
    harmonic pattern; amplitude, phase and background noise vary per window.
    """
    states = np.random.default_rng(STATE_SEED)
    base_freq = np.linspace(3.0, 8.0, n_classes)
    harmonics = states.uniform(0.0, 1.0, size=(n_classes, 3))
    rng = np.random.default_rng(seed)
    t = np.arange(length) / length
    labels = rng.integers(0, n_classes, size=n)
    signals = np.empty((n, length), dtype=np.float32)
    for i, c in enumerate(labels):
        f = base_freq[c] * rng.uniform(0.93, 1.07)
        phase = rng.uniform(0, 2 * np.pi)
        amp = rng.uniform(0.6, 1.4)
        x = np.sin(2 * np.pi * f * t + phase)
        for k, h in enumerate(harmonics[c], start=2):
            x += h * np.sin(2 * np.pi * k * f * t + k * phase)
        x = amp * x + rng.normal(0.0, 0.9, size=length)
        signals[i] = x
    return signals, labels.astype(np.int64)


def load_split(cfg, split):
    os.makedirs(cfg.cache_dir, exist_ok=True)
    n = cfg.n_train if split == "train" else cfg.n_val
    seed = cfg.seed if split == "train" else cfg.seed + 1000
    path = os.path.join(cfg.cache_dir, f"{split}_{n}_{cfg.signal_len}_{seed}.npz")
    if os.path.exists(path):
        blob = np.load(path)
        return blob["x"], blob["y"]
    x, y = make_signals(n, cfg.signal_len, cfg.n_classes, seed)
    np.savez_compressed(path, x=x, y=y)
    return x, y


class SignalDataset(Dataset):
    def __init__(self, signals, labels):
        self.signals = torch.from_numpy(signals).unsqueeze(1)
        self.labels = torch.from_numpy(labels)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.signals[i], self.labels[i]


def build_loaders(cfg):
    x_tr, y_tr = load_split(cfg, "train")
    x_va, y_va = load_split(cfg, "val")
    g = torch.Generator().manual_seed(cfg.seed)
    train_dl = DataLoader(
        SignalDataset(x_tr, y_tr), batch_size=cfg.batch_size, shuffle=True, generator=g
    )
    val_dl = DataLoader(SignalDataset(x_va, y_va), batch_size=256, shuffle=False)
    return train_dl, val_dl
