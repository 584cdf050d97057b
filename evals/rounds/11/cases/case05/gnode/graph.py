import numpy as np


def sensor_mesh(n_nodes, radius, rng):
    """Random geometric graph: sensors scattered in the unit square, linked if close."""
    pos = rng.random((n_nodes, 2))
    d = np.linalg.norm(pos[:, None] - pos[None], axis=-1)
    adj = ((d < radius) & (d > 0)).astype(np.float64)
    return pos, adj


def row_normalize(adj, self_loops=True):
    """D^-1 (A + I): each node averages itself and its neighbours."""
    a = adj + np.eye(len(adj)) if self_loops else adj.copy()
    deg = a.sum(axis=1, keepdims=True)
    return a / np.maximum(deg, 1e-12)


def make_task(n_nodes=600, radius=0.07, seed=4):
    """Node features are noisy local soil readings; the target (e.g. moisture
    at 30 cm) depends on the node's own readings and its 2-hop neighbourhood."""
    rng = np.random.default_rng(seed)
    pos, adj = sensor_mesh(n_nodes, radius, rng)
    P = row_normalize(adj)
    field = np.sin(3 * pos[:, 0]) * np.cos(2 * pos[:, 1]) + 0.5 * pos[:, 0]
    x = np.stack([field + rng.normal(0, 0.6, n_nodes),
                  rng.normal(0, 1, n_nodes),
                  pos[:, 0], pos[:, 1]], axis=1)
    smooth = P @ (P @ x[:, 0])
    y = 1.5 * smooth + 0.4 * np.tanh(x[:, 1]) + rng.normal(0, 0.05, n_nodes)
    return x.astype(np.float32), P.astype(np.float32), y.astype(np.float32)
