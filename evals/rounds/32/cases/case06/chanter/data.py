import numpy as np
import torch
from torch.utils.data import TensorDataset

# fundamental (cycles per trace) and strength of the 2nd/3rd harmonic per reed cut
REED_PROFILES = {
    0: (6.0, 0.2, 0.05),   # narrow scrape
    1: (6.0, 0.7, 0.10),   # wide scrape
    2: (9.0, 0.3, 0.40),   # short blade
    3: (9.0, 0.9, 0.05),   # long blade
}


def synthesize(cfg):
    """Return (traces, reeds) recorded reed by reed, the way the rig logs them."""
    rng = np.random.default_rng(cfg.seed)
    t = np.linspace(0, 1, cfg.trace_len, endpoint=False)
    traces, reeds = [], []
    for reed, (f0, h2, h3) in REED_PROFILES.items():
        for _ in range(cfg.n_per_reed):
            f = f0 * rng.uniform(0.93, 1.07)
            ph = rng.uniform(0, 2 * np.pi)
            sig = (np.sin(2 * np.pi * f * t + ph)
                   + h2 * np.sin(4 * np.pi * f * t + 2 * ph)
                   + h3 * np.sin(6 * np.pi * f * t + 3 * ph))
            drift = rng.normal(0, 0.3) * t
            sig = sig * rng.uniform(0.8, 1.2) + drift + rng.normal(0, 0.35, cfg.trace_len)
            traces.append(sig)
            reeds.append(reed)
    return np.asarray(traces, dtype=np.float32), np.asarray(reeds, dtype=np.int64)


def build_splits(cfg):
    traces, reeds = synthesize(cfg)
    rng = np.random.default_rng(cfg.seed + 1)
    # rig sessions come in reed order, mix them before cutting off the validation part
    traces = traces[rng.permutation(len(traces))]
    n_val = int(len(traces) * cfg.val_fraction)
    x = torch.from_numpy(traces).unsqueeze(1)
    y = torch.from_numpy(reeds)
    train = TensorDataset(x[n_val:], y[n_val:])
    val = TensorDataset(x[:n_val], y[:n_val])
    return train, val
