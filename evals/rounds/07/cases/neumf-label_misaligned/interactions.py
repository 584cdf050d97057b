"""Synthetic explicit-feedback log."""
import numpy as np


def simulate_log(n_users, n_items, n_events, rank, seed):
    rng = np.random.default_rng(seed)
    U = rng.normal(0, 0.7, size=(n_users, rank))
    V = rng.normal(0, 0.7, size=(n_items, rank))
    bu = rng.normal(0, 0.4, size=n_users)
    bi = rng.normal(0, 0.6, size=n_items)
    # popular items get more events
    pop = rng.zipf(1.6, size=n_items).astype(float)
    pop = np.minimum(pop, 50) / np.minimum(pop, 50).sum()
    users = rng.integers(0, n_users, size=n_events)
    items = rng.choice(n_items, size=n_events, p=pop)
    raw = 3.2 + bu[users] + bi[items] + (U[users] * V[items]).sum(1) + rng.normal(0, 0.3, size=n_events)
    ratings = np.clip(np.rint(raw), 1, 5).astype(np.float32)
    return users.astype(np.int64), items.astype(np.int64), ratings


def drop_repeats(users, items, ratings):
    """Keep one event per (user, item) pair: the earliest one in the log."""
    pairs = np.stack([users, items], axis=1)
    uniq, first = np.unique(pairs, axis=0, return_index=True)
    return uniq[:, 0], uniq[:, 1], ratings[np.sort(first)]


def split_log(users, items, ratings, val_frac, seed):
    rng = np.random.default_rng(seed + 1)
    order = rng.permutation(len(ratings))
    n_val = int(len(ratings) * val_frac)
    va, tr = order[:n_val], order[n_val:]
    return (users[tr], items[tr], ratings[tr]), (users[va], items[va], ratings[va])
