import random

import numpy as np
import torch
from torch.utils.data import Dataset, Sampler

PAD, END = 0, 1
TAG0 = 2  # tags occupy ids TAG0 .. TAG0 + n_tags - 1, ordinary words follow


def make_corpus(n, cfg, rng):
    """Return parallel lists: contexts, questions, answer spans (start, end inclusive)."""
    n_tags = cfg["n_tags"]
    word0 = TAG0 + n_tags
    contexts, questions, answers = [], [], []
    for _ in range(n):
        length = rng.randint(cfg["min_len"], cfg["max_len"])
        toks = [rng.randrange(word0, cfg["vocab"]) for _ in range(length)]
        tags = rng.sample(range(n_tags), cfg["facts_per_context"])
        spans = {}
        # place facts left to right in disjoint slots
        slot = length // cfg["facts_per_context"]
        for k, tag in enumerate(tags):
            ans_len = rng.randint(1, 4)
            lo = k * slot
            pos = rng.randint(lo, lo + slot - ans_len - 2)
            toks[pos] = TAG0 + tag
            toks[pos + ans_len + 1] = END
            spans[tag] = (pos + 1, pos + ans_len)
        q = rng.choice(tags)
        contexts.append(toks)
        questions.append(TAG0 + q)
        answers.append(spans[q])
    return contexts, questions, answers


class SpanDataset(Dataset):
    def __init__(self, contexts, questions, answers):
        self.fields = {"context": list(contexts), "question": list(questions)}
        self.answers = list(answers)

    def __len__(self):
        return len(self.answers)

    def bucket(self):
        """Sort by context length so neighbouring examples pad to similar sizes."""
        order = np.argsort([len(c) for c in self.fields["context"]], kind="stable")
        for key in self.fields:
            self.fields[key] = [self.fields[key][i] for i in order]
        return self

    def __getitem__(self, i):
        s, e = self.answers[i]
        return self.fields["context"][i], self.fields["question"][i], s, e


class BucketBatchSampler(Sampler):
    """Contiguous chunks of a (sorted) dataset, chunk order shuffled each epoch."""

    def __init__(self, n, batch_size, seed=0):
        self.chunks = [list(range(i, min(i + batch_size, n))) for i in range(0, n, batch_size)]
        self.rng = random.Random(seed)

    def __iter__(self):
        order = list(range(len(self.chunks)))
        self.rng.shuffle(order)
        for k in order:
            yield self.chunks[k]

    def __len__(self):
        return len(self.chunks)


MAX_TOKENS = 48


def collate(batch):
    width = min(max(len(c) for c, _, _, _ in batch), MAX_TOKENS)
    ctx = torch.full((len(batch), width), PAD, dtype=torch.long)
    start, end = [], []
    for i, (c, _, s, e) in enumerate(batch):
        c = c[:width]
        ctx[i, : len(c)] = torch.tensor(c)
        if e >= len(c):  # answer cut off by truncation: point at position 0 (SQuAD-v2 style)
            s = e = 0
        start.append(s)
        end.append(e)
    q = torch.tensor([b[1] for b in batch])
    return ctx, q, torch.tensor(start), torch.tensor(end)


def build(cfg):
    rng = random.Random(cfg["seed"])
    train = SpanDataset(*make_corpus(cfg["n_train"], cfg, rng))
    dev = SpanDataset(*make_corpus(cfg["n_dev"], cfg, rng))
    return train, dev
