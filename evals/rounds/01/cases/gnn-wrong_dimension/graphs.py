"""Random block-model graphs with noisy node features."""
import numpy as np
import torch


def sbm_graph(rng, n_nodes, n_blocks, p_in, p_out, feat_dim, signal):
    # block sizes vary a lot from graph to graph (some graphs are almost one block)
    sizes = rng.dirichlet(np.full(n_blocks, 0.3))
    blocks = rng.choice(n_blocks, size=n_nodes, p=sizes)
    same = blocks[:, None] == blocks[None, :]
    prob = np.where(same, p_in, p_out)
    upper = np.triu(rng.random((n_nodes, n_nodes)) < prob, k=1)
    adj = (upper | upper.T).astype(np.float32)
    # each block has a direction in feature space; features are mostly noise
    # and the direction is permuted per graph so that neighbours are needed
    centres = rng.normal(size=(n_blocks, feat_dim))
    feats = signal * centres[blocks] + rng.normal(size=(n_nodes, feat_dim))
    # a shared "anchor" feature that tells which block each centre belongs to
    anchor = np.zeros((n_nodes, n_blocks), dtype=np.float32)
    seeds = rng.random(n_nodes) < 0.25
    anchor[seeds, blocks[seeds]] = 1.0
    x = np.concatenate([feats, anchor], axis=1).astype(np.float32)
    return x, adj, blocks.astype(np.int64)


def make_dataset(n_graphs, seed, n_nodes=24, n_blocks=3, p_in=0.35, p_out=0.03, feat_dim=8, signal=0.4):
    rng = np.random.default_rng(seed)
    xs, adjs, ys = zip(*(sbm_graph(rng, n_nodes, n_blocks, p_in, p_out, feat_dim, signal) for _ in range(n_graphs)))
    return torch.tensor(np.stack(xs)), torch.tensor(np.stack(adjs)), torch.tensor(np.stack(ys))


def normalise_adjacency(adj):
    """Symmetric GCN normalisation D^-1/2 (A + I) D^-1/2 for a batch of dense adjacencies."""
    a = adj + torch.eye(adj.size(-1))
    d = a.sum(-1).rsqrt()
    return d.unsqueeze(-1) * a * d.unsqueeze(-2)
