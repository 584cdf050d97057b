"""Windowed wearable-sensor features for activity recognition (synthetic stand-in)."""
import os

import numpy as np
import torch
from torch.utils.data import TensorDataset

ACTIVITIES = ["sitting", "walking", "stairs", "running"]
FEATURES_PER_AXIS = ["mean", "std", "energy", "peak_freq", "zcr"]
AXES = ["acc_x", "acc_y", "acc_z", "gyr_x", "gyr_y", "gyr_z"]


def _simulate(n_windows, rng):
    n_feat = len(AXES) * len(FEATURES_PER_AXIS)
    prototypes = np.random.default_rng(100).normal(0, 0.6, (len(ACTIVITIES), n_feat))
    mixing = np.random.default_rng(101).normal(0, 0.4, (n_feat, n_feat))
    y = rng.integers(0, len(ACTIVITIES), n_windows)
    subject_offset = rng.normal(0, 0.5, (n_windows, n_feat))
    x = prototypes[y] + subject_offset @ mixing + rng.normal(0, 0.8, (n_windows, n_feat))
    return x.astype(np.float32), y.astype(np.int64)


def load_windows(root="data", seed=0):
    path = os.path.join(root, "har_windows.npz")
    if not os.path.exists(path):
        os.makedirs(root, exist_ok=True)
        rng = np.random.default_rng(seed)
        x_tr, y_tr = _simulate(3000, rng)
        x_te, y_te = _simulate(1000, rng)
        np.savez(path, x_train=x_tr, y_train=y_tr, x_test=x_te, y_test=y_te)
    d = np.load(path)
    mean, std = d["x_train"].mean(0), d["x_train"].std(0)
    train = TensorDataset(torch.from_numpy((d["x_train"] - mean) / std), torch.from_numpy(d["y_train"]))
    test = TensorDataset(torch.from_numpy((d["x_test"] - mean) / std), torch.from_numpy(d["y_test"]))
    return train, test
