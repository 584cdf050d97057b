import csv
import os

import numpy as np
import torch
from torch.utils.data import Dataset


class GlyphDataset(Dataset):
    """Glyph images stored as individual .npy files under <root>/images."""

    def __init__(self, root, indices=None):
        self.image_dir = os.path.join(root, "images")
        self.files = [f for f in os.listdir(self.image_dir) if f.endswith(".npy")]
        with open(os.path.join(root, "labels.csv")) as fh:
            self.labels = [int(row["label"]) for row in csv.DictReader(fh)]
        if len(self.files) != len(self.labels):
            raise ValueError(f"{len(self.files)} images but {len(self.labels)} labels")
        self.indices = list(range(len(self.files))) if indices is None else list(indices)

    def __len__(self):
        return len(self.indices)

    def __getitem__(self, i):
        j = self.indices[i]
        image = np.load(os.path.join(self.image_dir, self.files[j]))
        image = torch.from_numpy(image).unsqueeze(0)  # (1, H, W)
        return image, self.labels[j]


def train_val_split(root, val_fraction=0.2, seed=0):
    n = len([f for f in os.listdir(os.path.join(root, "images")) if f.endswith(".npy")])
    order = np.random.default_rng(seed).permutation(n)
    n_val = int(n * val_fraction)
    return GlyphDataset(root, order[n_val:]), GlyphDataset(root, order[:n_val])
