"""Synthetic click log + leave-last-out split."""
from dataclasses import dataclass

import numpy as np


@dataclass
class Log:
    user: np.ndarray
    item: np.ndarray
    ts: np.ndarray
    n_users: int
    n_items: int


def simulate_log(n_users, n_items, per_user, dim, seed):
    """Users pick items by a softmax over latent affinities plus item popularity."""
    rng = np.random.default_rng(seed)
    U = rng.normal(size=(n_users, dim))
    V = rng.normal(size=(n_items, dim))
    pop = rng.normal(0, 0.7, size=n_items)
    users, items, ts = [], [], []
    for u in range(n_users):
        k = rng.poisson(per_user) + 5
        logits = U[u] @ V.T / np.sqrt(dim) * 2.5 + pop
        p = np.exp(logits - logits.max())
        p /= p.sum()
        chosen = rng.choice(n_items, size=k, replace=False, p=p)
        users.append(np.full(k, u))
        items.append(chosen)
        ts.append(rng.uniform(0, 1e6, size=k))
    # the raw export is in arbitrary (server) order
    users, items, ts = map(np.concatenate, (users, items, ts))
    perm = rng.permutation(len(users))
    return Log(users[perm], items[perm], ts[perm].astype(np.int64), n_users, n_items)


def leave_last_out(log: Log):
    """Row indices of the training interactions and of each user's latest one."""
    order = np.lexsort((log.ts, log.user))          # by user, then time
    u_sorted = log.user[order]
    is_last = np.r_[u_sorted[1:] != u_sorted[:-1], True]
    test_rows = order[is_last]
    train_rows = np.flatnonzero(~is_last)
    return train_rows, test_rows


def sample_eval_negatives(log: Log, test_rows, n_neg, seed):
    """For every held-out (user, item) pick n_neg items the user never interacted with."""
    rng = np.random.default_rng(seed)
    seen = [set() for _ in range(log.n_users)]
    for u, i in zip(log.user, log.item):
        seen[u].add(i)
    negs = np.empty((len(test_rows), n_neg), dtype=np.int64)
    for r, row in enumerate(test_rows):
        u = log.user[row]
        got = []
        while len(got) < n_neg:
            c = int(rng.integers(log.n_items))
            if c not in seen[u] and c not in got:
                got.append(c)
        negs[r] = got
    return negs
