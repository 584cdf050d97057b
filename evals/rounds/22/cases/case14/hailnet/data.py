import numpy as np
import torch


def load_split(path, val_fraction, seed=0):
    d = np.load(path)
    x, diam = d["x"], d["diameter_mm"]
    rng = np.random.default_rng(seed)
    idx = rng.permutation(len(x))
    n_val = int(len(x) * val_fraction)
    va, tr = idx[:n_val], idx[n_val:]
    mu, sd = x[tr].mean(0), x[tr].std(0)
    norm = lambda a: torch.from_numpy((a - mu) / sd)
    log_t = lambda a: torch.from_numpy(np.log(a))
    return (norm(x[tr]), log_t(diam[tr])), (norm(x[va]), log_t(diam[va]))
