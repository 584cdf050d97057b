import numpy as np
import torch
from torch.utils.data import Dataset

WINDOW = 400  # 4 s


def scale_recording(rec):
    """Per-recording, per-lead standardisation (removes electrode gain/offset)."""
    mu = rec.mean(axis=1, keepdims=True)
    sd = rec.std(axis=1, keepdims=True) + 1e-6
    return (rec - mu) / sd


class EcgWindows(Dataset):
    def __init__(self, recordings, labels, normalize=True, augment=False, hop=200, seed=0):
        self.recs = [scale_recording(r) if normalize else r for r in recordings]
        self.index = []
        for ri, r in enumerate(self.recs):
            for s in range(0, r.shape[1] - WINDOW + 1, hop):
                self.index.append((ri, s, labels[ri]))
        self.augment = augment
        self.rng = np.random.default_rng(seed)

    def __len__(self):
        return len(self.index)

    def __getitem__(self, i):
        ri, s, y = self.index[i]
        x = self.recs[ri][:, s:s + WINDOW]
        if self.augment:
            x = x * np.float32(np.random.uniform(0.9, 1.1))
        return torch.from_numpy(np.ascontiguousarray(x)), torch.tensor(y, dtype=torch.long)


def build_datasets(train_recs, train_y, val_recs, val_y):
    train_ds = EcgWindows(train_recs, train_y, augment=True)
    val_ds = EcgWindows(val_recs, val_y, False)
    return train_ds, val_ds
