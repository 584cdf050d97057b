"""Synthetic reviews. Token ids: 0 = pad, 1 = unk, then neutral / positive / negative words."""
import numpy as np
import torch
from torch.utils.data import Dataset

N_NEUTRAL, N_POS, N_NEG = 300, 40, 40
VOCAB = 2 + N_NEUTRAL + N_POS + N_NEG
POS = np.arange(2 + N_NEUTRAL, 2 + N_NEUTRAL + N_POS)
NEG = np.arange(2 + N_NEUTRAL + N_POS, VOCAB)
NEUTRAL = np.arange(2, 2 + N_NEUTRAL)


def _review(label, rng):
    length = int(rng.integers(5, 41))
    toks = rng.choice(NEUTRAL, size=length)
    n_op = max(1, int(rng.binomial(length, 0.2)))
    # the stated opinion wins, but reviewers hedge with a few words of the other side
    n_major = n_op // 2 + 1
    pos = rng.choice(length, size=min(n_op, length), replace=False)
    major = POS if label == 1 else NEG
    minor = NEG if label == 1 else POS
    for k, p in enumerate(pos):
        toks[p] = rng.choice(major) if k < n_major else rng.choice(minor)
    return toks


def generate(n_per_class, seed):
    """Returns a list of (token array, label), negatives first then positives."""
    rng = np.random.default_rng(seed)
    out = []
    for label in (0, 1):
        for _ in range(n_per_class):
            out.append((_review(label, rng), label))
    return out


class ReviewDataset(Dataset):
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        toks, label = self.items[i]
        return torch.as_tensor(toks, dtype=torch.long), label


def collate(batch):
    seqs, labels = zip(*batch)
    lengths = torch.tensor([len(s) for s in seqs])
    padded = torch.nn.utils.rnn.pad_sequence(seqs, batch_first=True, padding_value=0)
    return padded, lengths, torch.tensor(labels, dtype=torch.float32)
