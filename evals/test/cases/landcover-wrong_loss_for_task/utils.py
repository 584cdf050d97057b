import os

import numpy as np
import torch

CLASSES = ["water", "forest", "grassland", "cropland", "urban", "bare_soil"]
N_BANDS = 12


def _simulate_pixels(n, rng):
    # a latent 2-D "surface state" mixed into 12 reflectance bands
    ring = np.array([0, 3, 1, 5, 2, 4])
    angles = 2 * np.pi * np.arange(len(CLASSES)) / len(CLASSES)
    centres = 2.0 * np.stack([np.cos(angles), np.sin(angles)], 1)
    mixing = np.random.default_rng(5).normal(0, 1, (2, N_BANDS))
    slot = rng.integers(0, len(CLASSES), n)
    latent = centres[slot] + rng.normal(0, 0.75, (n, 2))
    bands = latent @ mixing + rng.normal(0, 0.3, (n, N_BANDS))
    return bands.astype(np.float32), ring[slot].astype(np.int64)


def load_pixels(data_dir="data", n_train=3000, n_test=1000, seed=0):
    path = os.path.join(data_dir, "pixels.npz")
    if not os.path.exists(path):
        os.makedirs(data_dir, exist_ok=True)
        rng = np.random.default_rng(seed)
        xtr, ytr = _simulate_pixels(n_train, rng)
        xte, yte = _simulate_pixels(n_test, rng)
        np.savez(path, x_train=xtr, y_train=ytr, x_test=xte, y_test=yte)
    d = np.load(path)
    return (torch.from_numpy(d["x_train"]), torch.from_numpy(d["y_train"]),
            torch.from_numpy(d["x_test"]), torch.from_numpy(d["y_test"]))


def iterate_minibatches(x, y, batch_size, generator):
    perm = torch.randperm(len(x), generator=generator)
    for i in range(0, len(x), batch_size):
        idx = perm[i:i + batch_size]
        yield x[idx], y[idx]


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, value, n=1):
        self.sum += value * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)
