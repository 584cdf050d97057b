import numpy as np
import torch

N_ELEMENTS, MAX_ATOMS = 10, 10


def make_crystals(n, seed):
    rng = np.random.default_rng(seed)
    pair = np.random.default_rng(5).normal(0, 1, (N_ELEMENTS, N_ELEMENTS))
    pair = (pair + pair.T) / 2
    Z = np.zeros((n, MAX_ATOMS), np.int64)
    A = np.zeros((n, MAX_ATOMS, MAX_ATOMS), np.float32)
    M = np.zeros((n, MAX_ATOMS), np.float32)
    y = np.zeros(n, np.float32)
    for i in range(n):
        k = rng.integers(5, MAX_ATOMS + 1)
        z = rng.integers(0, N_ELEMENTS, k)
        adj = (rng.random((k, k)) < 0.4).astype(np.float32)
        adj = np.triu(adj, 1); adj = adj + adj.T
        Z[i, :k], M[i, :k], A[i, :k, :k] = z, 1, adj
        e = (adj * pair[z][:, z]).sum() / 2
        y[i] = e / k + 0.3 * np.tanh(adj.sum(1).mean() - 2)
    return [torch.from_numpy(a) for a in (Z, A, M, y)]
