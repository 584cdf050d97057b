import numpy as np
import torch
from torch.utils.data import Dataset


class WindowDataset(Dataset):
    def __init__(self, x, y, random_shift=0):
        self.x = x.astype(np.float32)
        self.y = y.astype(np.float32)
        self.random_shift = random_shift

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        w = self.x[i]
        if self.random_shift:
            # circular time shift; worker-local RNG is seeded by the DataLoader
            s = int(torch.randint(-self.random_shift, self.random_shift + 1, ()).item())
            w = np.roll(w, s)
        return torch.from_numpy(np.ascontiguousarray(w))[None], torch.tensor(self.y[i])
