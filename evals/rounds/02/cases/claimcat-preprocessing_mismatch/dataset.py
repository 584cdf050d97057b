import csv

import numpy as np
import torch
from torch.utils.data import Dataset


def read_rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def build_category_maps(rows, columns):
    """value -> index per column; index 0 is reserved for unseen values."""
    maps = {}
    for col in columns:
        mapping = {}
        for r in rows:
            if r[col] not in mapping:
                mapping[r[col]] = len(mapping) + 1
        maps[col] = mapping
    return maps


def numeric_stats(rows, columns):
    x = np.array([[float(r[c]) for c in columns] for r in rows], dtype=np.float64)
    return {"mean": x.mean(0).tolist(), "std": (x.std(0) + 1e-8).tolist()}


class ClaimsDataset(Dataset):
    def __init__(self, path, cat_cols, num_cols, target, cat_maps=None, num_stats=None):
        rows = read_rows(path)
        self.cat_maps = cat_maps or build_category_maps(rows, cat_cols)
        self.num_stats = num_stats or numeric_stats(rows, num_cols)

        cats = [[self.cat_maps[c].get(r[c], 0) for c in cat_cols] for r in rows]
        nums = np.array([[float(r[c]) for c in num_cols] for r in rows], dtype=np.float64)
        nums = (nums - np.array(self.num_stats["mean"])) / np.array(self.num_stats["std"])

        self.cats = torch.tensor(cats, dtype=torch.long)
        self.nums = torch.tensor(nums, dtype=torch.float32)
        self.y = torch.tensor([float(r[target]) for r in rows], dtype=torch.float32)

    def cardinalities(self):
        return [len(m) + 1 for m in self.cat_maps.values()]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.cats[i], self.nums[i], self.y[i]
