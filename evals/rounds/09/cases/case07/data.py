import numpy as np
import torch
from torch.utils.data import Dataset


def simulate_logs(cfg, rng):
    u = rng.normal(size=(cfg["users"], cfg["rank"]))
    v = rng.normal(size=(cfg["items"], cfg["rank"]))
    pop = rng.normal(0, 1.0, size=cfg["items"])
    logits = u @ v.T / np.sqrt(cfg["rank"]) * 2.0 + pop
    logs = []
    for user in range(cfg["users"]):
        p = np.exp(logits[user] - logits[user].max())
        p /= p.sum()
        items = rng.choice(cfg["items"], size=cfg["interactions_per_user"], replace=False, p=p)
        logs.append(items)  # in time order
    return logs


def leave_last_out(logs):
    train = {u: set(items[:-1].tolist()) for u, items in enumerate(logs)}
    test = {u: int(items[-1]) for u, items in enumerate(logs)}
    return train, test


class PointwiseNegatives(Dataset):
    """One positive (user, item) pair plus `negatives` sampled unseen items per index."""

    def __init__(self, train_sets, n_items, negatives):
        self.pairs = [(u, i) for u, items in train_sets.items() for i in sorted(items)]
        self.train_sets = train_sets
        self.n_items = n_items
        self.negatives = negatives

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, idx):
        u, i = self.pairs[idx]
        seen = self.train_sets[u]
        negs = []
        while len(negs) < self.negatives:
            j = int(np.random.randint(self.n_items))
            if j not in seen:
                negs.append(j)
        users = torch.full((1 + self.negatives,), u, dtype=torch.long)
        items = torch.tensor([i] + negs, dtype=torch.long)
        labels = torch.tensor([1.0] + [0.0] * self.negatives)
        return users, items, labels


def worker_init(worker_id):
    seed = torch.initial_seed() % 2**32
    np.random.seed(seed)
