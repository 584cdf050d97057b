import numpy as np
import torch

CLASSES = ["earthquake", "quarry_blast", "sonic_boom", "traffic"]


def make_catalog(n_per_class, seed, n_feat=24):
    """Returns features grouped by event type (catalog export order)."""
    rng = np.random.default_rng(seed)
    protos = np.random.default_rng(42).normal(size=(len(CLASSES), n_feat))
    X, y = [], []
    for c in range(len(CLASSES)):
        scale = rng.uniform(0.5, 2.0, size=(n_per_class, 1))       # station-distance gain
        x = protos[c] * scale + rng.normal(0, 1.3, size=(n_per_class, n_feat)) + 3.0
        X.append(x)
        y += [c] * n_per_class
    return torch.tensor(np.concatenate(X), dtype=torch.float32), torch.tensor(y)
