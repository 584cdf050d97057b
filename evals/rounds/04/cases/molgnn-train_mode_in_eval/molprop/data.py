import numpy as np
import torch

N_TYPES = 4
ATOM_W = np.array([1.0, -0.5, 2.0, 0.3])
BOND_W = np.array([[0.2, 0.5, -0.3, 0.1],
                   [0.5, -0.4, 0.8, 0.0],
                   [-0.3, 0.8, 0.6, -0.7],
                   [0.1, 0.0, -0.7, 0.3]])


def random_molecule(rng):
    n = int(rng.integers(5, 16))
    types = rng.choice(N_TYPES, size=n, p=[0.4, 0.3, 0.2, 0.1])
    edges = [(int(rng.integers(0, i)), i) for i in range(1, n)]
    n_rings = int(rng.integers(0, 3))
    for _ in range(n_rings):
        a, b = rng.choice(n, size=2, replace=False)
        edges.append((int(a), int(b)))
    y = ATOM_W[types].sum() + sum(BOND_W[types[a], types[b]] for a, b in edges) + 0.7 * n_rings
    src = [a for a, b in edges] + [b for a, b in edges]
    dst = [b for a, b in edges] + [a for a, b in edges]
    return {"x": torch.tensor(types), "edge_index": torch.tensor([src, dst]), "y": float(y)}


def make_split(n, seed):
    rng = np.random.default_rng(seed)
    return [random_molecule(rng) for _ in range(n)]


def collate(mols):
    xs, eis, batch, ys, offset = [], [], [], [], 0
    for g, m in enumerate(mols):
        xs.append(m["x"])
        eis.append(m["edge_index"] + offset)
        batch.append(torch.full((len(m["x"]),), g, dtype=torch.long))
        ys.append(m["y"])
        offset += len(m["x"])
    return torch.cat(xs), torch.cat(eis, 1), torch.cat(batch), torch.tensor(ys, dtype=torch.float32)


def batches(mols, size, shuffle=False, rng=None):
    order = rng.permutation(len(mols)) if shuffle else np.arange(len(mols))
    for i in range(0, len(mols), size):
        yield collate([mols[j] for j in order[i:i + size]])
