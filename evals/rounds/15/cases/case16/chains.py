import numpy as np
import torch

N_TYPES = 5
CONTRIB = np.array([1.0, -0.5, 0.3, 0.8, -1.2])
PAIR = np.array([[0.0, 1.5, -0.4, 0.0, 0.2],
                 [1.5, -1.0, 0.0, 0.6, 0.0],
                 [-0.4, 0.0, 0.8, -1.1, 0.3],
                 [0.0, 0.6, -1.1, 0.0, 1.0],
                 [0.2, 0.0, 0.3, 1.0, -0.7]])


def random_chain(rng):
    n = int(rng.integers(6, 16))
    types = rng.integers(0, N_TYPES, size=n)
    edges = [(i, i + 1) for i in range(n - 1)]
    # occasional side group hanging off a backbone unit
    for _ in range(int(rng.integers(0, 3))):
        host = int(rng.integers(0, n))
        types = np.append(types, rng.integers(0, N_TYPES))
        edges.append((host, len(types) - 1))
    y = CONTRIB[types].mean() + sum(PAIR[types[u], types[v]] for u, v in edges) / len(edges)
    return types, np.array(edges), float(y)


def make_dataset(n, seed):
    rng = np.random.default_rng(seed)
    return [random_chain(rng) for _ in range(n)]


def collate(graphs):
    """Batch a list of graphs into one disjoint graph."""
    xs, src, dst, batch, ys = [], [], [], [], []
    offset = 0
    for gi, (types, edges, y) in enumerate(graphs):
        xs.append(np.eye(N_TYPES, dtype=np.float32)[types])
        src += list(edges[:, 0] + offset) + list(edges[:, 1] + offset)
        dst += list(edges[:, 1] + offset) + list(edges[:, 0] + offset)
        batch += [gi] * len(types)
        ys.append(y)
        offset += len(types)
    return (torch.from_numpy(np.concatenate(xs)), torch.tensor([src, dst]),
            torch.tensor(batch), torch.tensor(ys, dtype=torch.float32))
