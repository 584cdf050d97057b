"""Synthetic support-ticket corpus and the train/val/test split.

Each ticket is a list of token ids. A queue (class) has its own topical
vocabulary; tickets mix topical and generic tokens. Routing labels come from
the helpdesk log and a share of them is inconsistent, as in the real data.
"""
import numpy as np
import torch
from torch.utils.data import Dataset

PAD = 0


def make_corpus(n_tickets, vocab_size, n_queues, seed):
    rng = np.random.default_rng(seed)
    topic_words = rng.choice(np.arange(1, vocab_size), size=(n_queues, 60), replace=False)
    queues = rng.integers(0, n_queues, size=n_tickets)
    tickets = []
    for q in queues:
        length = int(rng.choice([rng.integers(2, 8), rng.integers(12, 40)], p=[0.15, 0.85]))
        n_topic = rng.binomial(length, 0.3)
        words = np.concatenate([
            rng.choice(topic_words[q], size=n_topic),
            rng.integers(1, vocab_size, size=length - n_topic),
        ])
        rng.shuffle(words)
        tickets.append(words.astype(np.int64))
    noisy = rng.random(n_tickets) < 0.25
    queues[noisy] = rng.integers(0, n_queues, size=noisy.sum())
    return tickets, queues.astype(np.int64)


class TicketDataset(Dataset):
    def __init__(self, tickets, queues):
        self.tickets = tickets
        self.queues = queues

    def __len__(self):
        return len(self.queues)

    def __getitem__(self, i):
        return self.tickets[i], self.queues[i]


def collate_bag(batch):
    """Flatten a batch of variable-length tickets into EmbeddingBag inputs."""
    tokens, offsets, labels = [], [0], []
    for words, q in batch:
        tokens.append(torch.as_tensor(words))
        offsets.append(offsets[-1] + len(words))
        labels.append(int(q))
    return (torch.cat(tokens), torch.tensor(offsets[:-1]), torch.tensor(labels))


def split_ids(tickets, min_tokens, test_size, val_size, seed):
    """Drop near-empty tickets, hold out a test set, then carve a validation set."""
    rng = np.random.default_rng(seed)
    lengths = np.array([len(t) for t in tickets])
    usable = np.flatnonzero(lengths >= min_tokens)
    usable = rng.permutation(usable)

    test_ids = usable[:test_size]
    remaining = usable[test_size:]

    perm = rng.permutation(len(remaining))
    val_ids = perm[:val_size]
    train_ids = perm[val_size:]
    return train_ids, val_ids, test_ids
