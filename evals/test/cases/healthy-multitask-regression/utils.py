import os
import random

import numpy as np
import torch

CHEMISTRIES = ["LFP", "NMC", "LCO"]
N_FEATURES = 10


def set_seed(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def simulate_cells(n, rng):
    """Summary statistics of the first 100 cycles -> remaining capacity (Ah) at cycle 500."""
    chem = rng.integers(0, len(CHEMISTRIES), n)
    chem_offset = np.array([[0.5, -0.2, 0.0], [-0.3, 0.4, 0.3], [0.1, 0.1, -0.6]])[chem]
    stats = rng.normal(0, 1, (n, N_FEATURES))
    stats[:, :3] += chem_offset * 4.0
    capacity = (
        2.4
        + 0.25 * stats[:, 3]
        - 0.18 * stats[:, 4] ** 2
        + 0.12 * stats[:, 5] * stats[:, 6]
        + np.array([0.3, 0.0, -0.25])[chem]
        + rng.normal(0, 0.05, n)
    )
    return stats.astype(np.float32), capacity.astype(np.float32), chem.astype(np.int64)


def load_cells(root="data", seed=0):
    path = os.path.join(root, "cells.npz")
    if not os.path.exists(path):
        os.makedirs(root, exist_ok=True)
        rng = np.random.default_rng(seed)
        parts = {}
        for split, n in (("train", 2400), ("test", 600)):
            parts[f"x_{split}"], parts[f"cap_{split}"], parts[f"chem_{split}"] = simulate_cells(n, rng)
        np.savez(path, **parts)
    d = np.load(path)
    return {k: torch.from_numpy(d[k]) for k in d.files}
