import zlib

import numpy as np
import torch
from torch.utils.data import Dataset


def bucket(token, n_buckets):
    # crc32 is stable across processes (python's hash() is salted per run)
    return zlib.crc32(token.encode()) % n_buckets


class HashedPosts(Dataset):
    def __init__(self, posts, labels, n_buckets):
        self.rows = [sorted({bucket(t, n_buckets) for t in p}) for p in posts]
        self.labels = labels
        self.n = n_buckets

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        x = torch.zeros(self.n)
        x[self.rows[i]] = 1.0
        return x, int(self.labels[i])


def split(n, val_fraction, seed):
    idx = np.random.default_rng(seed).permutation(n)
    k = int(n * val_fraction)
    return np.sort(idx[k:]), np.sort(idx[:k])
