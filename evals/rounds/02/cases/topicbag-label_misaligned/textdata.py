import random
from collections import Counter

import torch
from torch.utils.data import Dataset, Sampler

PAD, UNK = "<pad>", "<unk>"


class Vocab:
    def __init__(self, texts, min_freq=1):
        counts = Counter(tok for t in texts for tok in t.split())
        self.itos = [PAD, UNK] + sorted(w for w, c in counts.items() if c >= min_freq)
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def encode(self, text):
        unk = self.stoi[UNK]
        return [self.stoi.get(tok, unk) for tok in text.split()]


def encode_corpus(texts, vocab, max_len):
    ids = [vocab.encode(t)[:max_len] for t in texts]
    # keep the corpus length-sorted: BucketSampler takes contiguous slices
    ids.sort(key=len)
    return ids


class TicketDataset(Dataset):
    def __init__(self, token_ids, labels):
        self.token_ids = token_ids
        self.labels = labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.token_ids[i], self.labels[i]


class BucketSampler(Sampler):
    """Contiguous slices of a length-sorted dataset, in random order each epoch."""

    def __init__(self, n, batch_size, shuffle=True, seed=0):
        self.batches = [list(range(i, min(i + batch_size, n))) for i in range(0, n, batch_size)]
        self.shuffle = shuffle
        self.rng = random.Random(seed)

    def __iter__(self):
        order = list(range(len(self.batches)))
        if self.shuffle:
            self.rng.shuffle(order)
        for b in order:
            yield self.batches[b]

    def __len__(self):
        return len(self.batches)


def pad_collate(batch):
    seqs, labels = zip(*batch)
    width = max(len(s) for s in seqs)
    x = torch.zeros(len(seqs), width, dtype=torch.long)  # 0 == <pad>
    for i, s in enumerate(seqs):
        x[i, :len(s)] = torch.tensor(s, dtype=torch.long)
    return x, torch.tensor(labels, dtype=torch.long)
