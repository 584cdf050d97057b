import torch
from torch.utils.data import Dataset


class Vocab:
    def __init__(self, text):
        self.itos = sorted(set(text))
        self.stoi = {c: i for i, c in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def encode(self, text):
        return torch.tensor([self.stoi[c] for c in text], dtype=torch.long)

    def decode(self, ids):
        return "".join(self.itos[i] for i in ids)


class NextCharWindows(Dataset):
    """Windows of `context` characters; the target is the same window one step ahead."""

    def __init__(self, ids, context, stride=1):
        self.ids = ids
        self.context = context
        self.starts = torch.arange(0, len(ids) - context - 1, stride)

    def __len__(self):
        return len(self.starts)

    def __getitem__(self, k):
        s = int(self.starts[k])
        chunk = self.ids[s:s + self.context + 1]
        return chunk[:-1], chunk[1:]
