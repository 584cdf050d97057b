"""Toy MOF generator: dense adjacency, padded to MAX_NODES."""
import numpy as np

NODE_TYPES = ["Zn", "Cu", "Zr", "bdc", "bdc-NH2", "bpy", "btc"]
METALS = {0, 1, 2}
AMINE = 4
MAX_NODES = 18


def random_framework(rng):
    n = int(rng.integers(8, MAX_NODES + 1))
    types = np.where(rng.random(n) < 0.4, rng.integers(0, 3, n), rng.integers(3, 7, n))
    adj = np.zeros((n, n), np.float32)
    for i in range(1, n):  # spanning tree keeps it connected, then a few extra bonds
        j = rng.integers(0, i)
        adj[i, j] = adj[j, i] = 1
    for _ in range(n // 2):
        i, j = rng.integers(0, n, 2)
        if i != j:
            adj[i, j] = adj[j, i] = 1
    return types, adj


def uptake(types, adj):
    val = 0.0
    for i, t in enumerate(types):
        if t in METALS:
            nb = types[adj[i] > 0]
            amines = int((nb == AMINE).sum())
            val += 1.2 * min(amines, 2) + (0.8 if t == 1 and adj[i].sum() < 3 else 0.0)
        elif t == 6:
            val += 0.3 * int(sum(types[adj[i] > 0] == 2))
    return val


def make_dataset(n, seed):
    rng = np.random.default_rng(seed)
    X = np.zeros((n, MAX_NODES, len(NODE_TYPES)), np.float32)
    A = np.zeros((n, MAX_NODES, MAX_NODES), np.float32)
    M = np.zeros((n, MAX_NODES), np.float32)
    y = np.zeros(n, np.float32)
    for k in range(n):
        types, adj = random_framework(rng)
        m = len(types)
        X[k, np.arange(m), types] = 1
        A[k, :m, :m] = adj
        M[k, :m] = 1
        y[k] = uptake(types, adj) + rng.normal(0, 0.1)
    return X, A, M, y
