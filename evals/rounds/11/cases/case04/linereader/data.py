import numpy as np
import torch
from torch.utils.data import Dataset

from .glyphs import render_line


class MeterLines(Dataset):
    """Rows of meter digits, rendered lazily; item i is always the same image."""

    def __init__(self, n_lines, line_len, seed):
        self.n_lines = n_lines
        self.line_len = line_len
        self.seed = seed
        rng = np.random.default_rng(seed)
        self.labels = rng.integers(0, 10, size=(n_lines, line_len))

    def __len__(self):
        return self.n_lines

    def __getitem__(self, i):
        rng = np.random.default_rng([self.seed, i])
        img = render_line(self.labels[i], rng)
        return torch.from_numpy(img).unsqueeze(0), torch.from_numpy(self.labels[i]).long()
