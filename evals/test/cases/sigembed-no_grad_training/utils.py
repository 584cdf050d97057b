import os
import random

import numpy as np
import torch

CLASS_NAMES = ["tone_lo", "tone_hi", "chirp_up", "chirp_down", "burst"]
LENGTH = 128


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def synth_signal(kind, rng):
    t = np.linspace(0.0, 1.0, LENGTH, endpoint=False)
    phase = rng.uniform(0, 2 * np.pi)
    amp = rng.uniform(0.6, 1.4)
    if kind == 0:
        s = np.sin(2 * np.pi * rng.uniform(5, 7) * t + phase)
    elif kind == 1:
        s = np.sin(2 * np.pi * rng.uniform(8, 10) * t + phase)
    elif kind == 2:
        s = np.sin(2 * np.pi * (4 * t + 5 * t ** 2) + phase)
    elif kind == 3:
        s = np.sin(2 * np.pi * (10 * t - 5 * t ** 2) + phase)
    else:
        centre = rng.uniform(0.3, 0.7)
        s = np.sin(2 * np.pi * 7.5 * t + phase) * np.exp(-((t - centre) / 0.12) ** 2) * 1.8
    return (amp * s + rng.normal(0, 0.6, LENGTH)).astype(np.float32)


def load_split(root, split, n_per_class, seed):
    path = os.path.join(root, f"{split}.npz")
    if not os.path.exists(path):
        os.makedirs(root, exist_ok=True)
        rng = np.random.default_rng(seed)
        labels = np.repeat(np.arange(len(CLASS_NAMES)), n_per_class)
        signals = np.stack([synth_signal(k, rng) for k in labels])
        np.savez(path, signals=signals, labels=labels)
    data = np.load(path)
    return torch.from_numpy(data["signals"]).unsqueeze(1), torch.from_numpy(data["labels"]).long()


def export_embeddings(model, signals, batch_size=256):
    """Unit-norm embeddings for the nearest-neighbour search index."""
    model.eval()
    return torch.cat([model.embed(signals[i:i + batch_size]) for i in range(0, len(signals), batch_size)])
