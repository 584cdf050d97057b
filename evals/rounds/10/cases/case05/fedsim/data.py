import numpy as np
import torch

N_CLASSES, DIM = 5, 16


def synthetic(n, rng):
    W = np.random.default_rng(5).normal(size=(DIM, N_CLASSES))
    V = np.random.default_rng(6).normal(size=(DIM, DIM)) / 4
    x = rng.normal(size=(n, DIM))
    logits = np.tanh(x @ V) @ W * 2 + x @ W
    y = logits.argmax(1)
    return x.astype(np.float32), y


def dirichlet_shards(y, n_clients, alpha, rng):
    shards = [[] for _ in range(n_clients)]
    for c in range(N_CLASSES):
        idx = np.flatnonzero(y == c)
        rng.shuffle(idx)
        props = rng.dirichlet(alpha * np.ones(n_clients))
        cuts = (np.cumsum(props) * len(idx)).astype(int)[:-1]
        for k, part in enumerate(np.split(idx, cuts)):
            shards[k].extend(part.tolist())
    return [np.array(s, dtype=np.int64) for s in shards]


def to_tensors(x, y):
    return torch.from_numpy(x), torch.from_numpy(y)
