import numpy as np
import torch

ITEMS = ["needle", "spool", "button", "scissors", "pin", "hoop", "thimble", "tape"]
PURPOSES = ["quilting", "tailoring", "embroidery", "travel"]
# item mix per purpose (probabilities over ITEMS)
MIX = np.array([
    [0.10, 0.20, 0.02, 0.10, 0.35, 0.03, 0.10, 0.10],
    [0.15, 0.20, 0.25, 0.15, 0.10, 0.00, 0.05, 0.10],
    [0.25, 0.35, 0.02, 0.08, 0.05, 0.20, 0.05, 0.00],
    [0.20, 0.25, 0.25, 0.05, 0.10, 0.00, 0.10, 0.05],
])
SIZE_MEAN = np.array([1.2, 0.6, 0.8, 0.9])   # travel kits hold smaller items


def make_kits(n, set_size, seed):
    g = np.random.default_rng(seed)
    y = g.integers(0, len(PURPOSES), n)
    X = np.zeros((n, set_size, len(ITEMS) + 2), np.float32)
    for i in range(n):
        kinds = g.choice(len(ITEMS), set_size, p=MIX[y[i]])
        X[i, np.arange(set_size), kinds] = 1.0
        X[i, :, -2] = g.normal(SIZE_MEAN[y[i]], 0.3, set_size)
        X[i, :, -1] = g.uniform(0, 1, set_size)          # colour hue, uninformative
    return torch.from_numpy(X), torch.from_numpy(y)
