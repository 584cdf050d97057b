import numpy as np
import torch


def stochastic_block_model(n_nodes, n_blocks, p_in, p_out, feat_dim, feat_signal, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_blocks, n_nodes)
    same = y[:, None] == y[None, :]
    prob = np.where(same, p_in, p_out)
    upper = np.triu(rng.random((n_nodes, n_nodes)) < prob, 1)
    adj = upper | upper.T
    centers = rng.normal(size=(n_blocks, feat_dim))
    x = feat_signal * centers[y] + rng.normal(size=(n_nodes, feat_dim))
    return torch.tensor(x, dtype=torch.float32), torch.tensor(adj), torch.tensor(y)


def split_nodes(n, train_frac, val_frac, seed):
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(seed))
    a, b = int(train_frac * n), int((train_frac + val_frac) * n)
    return perm[:a], perm[a:b], perm[b:]
