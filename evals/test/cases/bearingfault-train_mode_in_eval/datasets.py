"""Vibration spectra of a bearing test rig, one 64-bin spectrum per measurement.

The rig exports measurements grouped by fault type; they are stored that way in
data/*.npz.
"""
import os

import numpy as np
import torch
from torch.utils.data import TensorDataset

FAULTS = ["healthy", "inner_race", "outer_race", "ball", "cage"]
N_BINS = 64


def _spectra(n_per_fault, rng):
    freqs = np.arange(N_BINS)
    fault_lines = {1: [11, 22, 33], 2: [7, 14, 21, 28], 3: [9, 18, 27], 4: [3, 6]}
    xs, ys = [], []
    for fault in range(len(FAULTS)):
        for _ in range(n_per_fault):
            load = rng.uniform(0.5, 1.5)
            spec = load * np.exp(-freqs / 30.0) + rng.gamma(2.0, 0.08, N_BINS)
            for line in fault_lines.get(fault, []):
                spec += rng.uniform(0.1, 0.4) * np.exp(-0.5 * ((freqs - line) / 0.8) ** 2)
            xs.append(np.log1p(spec))
            ys.append(fault)
    return np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.int64)


def get_datasets(root="data", seed=0):
    path = os.path.join(root, "bearing_spectra.npz")
    if not os.path.exists(path):
        os.makedirs(root, exist_ok=True)
        rng = np.random.default_rng(seed)
        x_train, y_train = _spectra(400, rng)
        x_test, y_test = _spectra(100, rng)
        np.savez(path, x_train=x_train, y_train=y_train, x_test=x_test, y_test=y_test)
    d = np.load(path)
    return (TensorDataset(torch.from_numpy(d["x_train"]), torch.from_numpy(d["y_train"])),
            TensorDataset(torch.from_numpy(d["x_test"]), torch.from_numpy(d["y_test"])))
