"""Synthetic 3-axis gesture recordings: two strokes along different axes, in order."""
import os

import numpy as np
import torch
from torch.utils.data import Dataset

# (first axis, second axis) of the two strokes for each gesture
GESTURES = {"swipe_right_up": (0, 1), "swipe_up_right": (1, 0), "push_right": (2, 0), "push_up": (2, 1)}


def _record(first, second, seq_len, rng):
    t = np.arange(seq_len)
    signal = rng.normal(0.0, 0.9, (seq_len, 3))
    t1 = rng.uniform(0.15, 0.4) * seq_len
    t2 = t1 + rng.uniform(0.25, 0.45) * seq_len
    for axis, centre in ((first, t1), (second, t2)):
        sign = rng.choice([-1.0, 1.0]) if axis == 2 else 1.0
        signal[:, axis] += sign * 1.3 * np.exp(-0.5 * ((t - centre) / 2.5) ** 2)
    return signal.astype(np.float32)


class GestureDataset(Dataset):
    def __init__(self, data_dir, split, n, seq_len, seed):
        path = os.path.join(data_dir, f"gestures_{split}.npz")
        if not os.path.exists(path):
            os.makedirs(data_dir, exist_ok=True)
            rng = np.random.default_rng(seed)
            labels = rng.integers(0, len(GESTURES), n)
            pairs = list(GESTURES.values())
            x = np.stack([_record(*pairs[c], seq_len, rng) for c in labels])
            np.savez(path, x=x, y=labels)
        arrays = np.load(path)
        self.x = torch.from_numpy(arrays["x"])          # (N, T, 3)
        self.y = torch.from_numpy(arrays["y"]).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]
