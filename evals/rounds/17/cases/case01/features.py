import zlib

import numpy as np
import torch
from torch.utils.data import Dataset


def bucket(term, n_buckets):
    return zlib.crc32(term.encode("utf-8")) % n_buckets


class HashedSubjects(Dataset):
    def __init__(self, records, genres, n_buckets):
        self.records = records
        self.index = {g: i for i, g in enumerate(genres)}
        self.n_buckets = n_buckets

    def __len__(self):
        return len(self.records)

    def __getitem__(self, i):
        rec = self.records[i]
        x = np.zeros(self.n_buckets, dtype=np.float32)
        for term in rec["subjects"]:
            x[bucket(term, self.n_buckets)] += 1.0
        return torch.from_numpy(np.log1p(x)), self.index[rec["genre"]]
