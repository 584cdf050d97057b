import numpy as np
import torch


def random_tree(n, rng):
    edges = [(i, int(rng.integers(0, i))) for i in range(1, n)]  # random recursive tree
    return edges


def make_graph(label, rng, min_nodes, max_nodes):
    n = int(rng.integers(min_nodes, max_nodes + 1))
    edges = random_tree(n, rng)
    if label == 1:
        existing = set(edges) | {(b, a) for a, b in edges}
        extra = int(rng.integers(1, 3))
        while extra:
            a, b = rng.choice(n, 2, replace=False)
            if (a, b) not in existing:
                edges.append((int(a), int(b)))
                existing |= {(a, b), (b, a)}
                extra -= 1
    A = np.zeros((n, n), dtype=np.float32)
    for a, b in edges:
        A[a, b] = A[b, a] = 1.0
    return A


def build_dataset(n_graphs, min_nodes, max_nodes, max_degree, seed):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, n_graphs)
    N = max_nodes
    adj = torch.zeros(n_graphs, N, N)
    feats = torch.zeros(n_graphs, N, max_degree + 1)
    mask = torch.zeros(n_graphs, N)
    for g, y in enumerate(labels):
        A = make_graph(int(y), rng, min_nodes, max_nodes)
        n = A.shape[0]
        adj[g, :n, :n] = torch.from_numpy(A)
        deg = np.minimum(A.sum(1).astype(int), max_degree)
        feats[g, np.arange(n), deg] = 1.0
        mask[g, :n] = 1.0
    return adj, feats, mask, torch.from_numpy(labels)
