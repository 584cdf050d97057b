import numpy as np
import torch
from torch.utils.data import Dataset

PAD_REL = -1  # relevance value used for padded slots


def make_queries(n_queries, n_features, min_docs, max_docs, seed, world_seed=123):
    """List of (features [n_docs, F] float32, relevance [n_docs] int64) per query."""
    world = np.random.default_rng(world_seed)
    w1 = world.normal(size=(n_features, 8))
    w2 = world.normal(size=8)
    w_lin = world.normal(size=n_features) * 0.5

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_queries):
        n = rng.integers(min_docs, max_docs + 1)
        q_shift = rng.normal(scale=0.5, size=n_features)       # query-specific context
        x = rng.normal(size=(n, n_features)) + q_shift
        util = np.tanh(x @ w1) @ w2 + x @ w_lin + rng.normal(scale=0.5, size=n)
        # graded labels relative to the query's own candidates
        cuts = np.quantile(util, [0.5, 0.75, 0.9])
        rel = np.searchsorted(cuts, util)
        out.append((x.astype(np.float32), rel.astype(np.int64)))
    return out


class QueryGroups(Dataset):
    def __init__(self, groups):
        self.groups = groups

    def __len__(self):
        return len(self.groups)

    def __getitem__(self, i):
        x, rel = self.groups[i]
        return torch.from_numpy(x), torch.from_numpy(rel)


def collate_queries(batch):
    """Pad a list of queries to the longest candidate list.

    Returns feats [B, D, F], rels [B, D] (PAD_REL in padded slots) and
    pad_mask [B, D], True for padded slots (key_padding_mask convention).
    """
    d = max(x.shape[0] for x, _ in batch)
    f = batch[0][0].shape[1]
    feats = torch.zeros(len(batch), d, f)
    rels = torch.full((len(batch), d), PAD_REL, dtype=torch.long)
    pad_mask = torch.ones(len(batch), d, dtype=torch.bool)
    for i, (x, r) in enumerate(batch):
        n = x.shape[0]
        feats[i, :n] = x
        rels[i, :n] = r
        pad_mask[i, :n] = False
    return feats, rels, pad_mask
