import torch
from torch.utils.data import Dataset


class TrickRecordings(Dataset):
    """Each item is one recording, shape (T, 6), and the player id."""

    def __init__(self, x, y):
        self.x = torch.from_numpy(x)
        self.y = torch.from_numpy(y)
        self.mean = self.x.mean(dim=(0, 1))
        self.std = self.x.std(dim=(0, 1))

    def set_stats(self, mean, std):
        self.mean, self.std = mean, std

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return (self.x[i] - self.mean) / self.std, self.y[i]
