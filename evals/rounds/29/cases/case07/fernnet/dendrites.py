import numpy as np

MAX_NODES = 20
N_FEAT = 3


def grow_tree(rng):
    n = rng.integers(8, MAX_NODES + 1)
    parent = np.full(n, -1)
    for i in range(1, n):
        parent[i] = rng.integers(max(0, i - 4), i)
    adj = np.zeros((MAX_NODES, MAX_NODES), np.float32)
    for i in range(1, n):
        adj[i, parent[i]] = adj[parent[i], i] = 1.0
    feat = np.zeros((MAX_NODES, N_FEAT), np.float32)
    feat[:n, 0] = rng.uniform(0, 1, n)          # supersaturation
    feat[:n, 1] = rng.uniform(-1, 1, n)         # branch angle (scaled)
    feat[:n, 2] = rng.uniform(0, 1, n)          # tip curvature
    mask = np.zeros(MAX_NODES, np.float32)
    mask[:n] = 1
    # growth: tips grow with their own and their neighbours' supersaturation,
    # curved tips grow faster, crowded junctions slow down
    deg = adj.sum(1)
    nb_sat = adj @ feat[:, 0] / np.maximum(deg, 1)
    nb2 = adj @ nb_sat / np.maximum(deg, 1)
    tip = (deg == 1) & (mask > 0)
    rate = tip * (feat[:, 0] * nb_sat + 0.8 * nb2 * feat[:, 2] ** 2) - 0.05 * np.maximum(deg - 2, 0)
    y = rate[:n].sum() + rng.normal(0, 0.05)
    return feat, adj, mask, np.float32(y)


def make_dataset(n, seed):
    rng = np.random.default_rng(seed)
    items = [grow_tree(rng) for _ in range(n)]
    return [np.stack(a) for a in zip(*items)]
