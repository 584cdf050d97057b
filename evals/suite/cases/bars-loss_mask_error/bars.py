# Horizontal-vs-vertical bar images, 8x8, one channel, with pixel noise.
import numpy as np
import torch
from torch.utils.data import Dataset

SIZE = 8
HORIZONTAL, VERTICAL = 0, 1


def draw_bars(n, noise=0.35, seed=0):
    rng = np.random.default_rng(seed)
    imgs = rng.normal(0.0, noise, size=(n, 1, SIZE, SIZE)).astype(np.float32)
    labels = rng.integers(0, 2, size=n)
    where = rng.integers(0, SIZE, size=n)
    for i in range(n):
        if labels[i] == HORIZONTAL:
            imgs[i, 0, where[i], :] += 1.0
        else:
            imgs[i, 0, :, where[i]] += 1.0
    return imgs, labels.astype(np.int64)


class BarsDataset(Dataset):
    def __init__(self, imgs, labels, mean=0.0, std=1.0):
        self.imgs = (imgs - mean) / std
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        # image [1, 8, 8] float32, label a plain int -> batches of int64 class indices [B]
        return torch.from_numpy(self.imgs[idx]), int(self.labels[idx])
