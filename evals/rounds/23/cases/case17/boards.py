import numpy as np
import torch

N_CHEESES, N_WINES, MAX_BOARD = 30, 12, 6


def catalogue(seed=3):
    rng = np.random.default_rng(seed)
    return rng.normal(0, 1, (N_CHEESES, 4)), rng.normal(0, 1, (N_WINES, 4)), rng.normal(0, 1.0, N_WINES)


def make_boards(n, seed):
    rng = np.random.default_rng(seed)
    cheese_vec, wine_vec, wine_pop = catalogue()
    ids = np.zeros((n, MAX_BOARD), np.int64)
    mask = np.zeros((n, MAX_BOARD), bool)
    aff = np.zeros((n, N_WINES), np.float32)
    for i in range(n):
        k = rng.integers(2, MAX_BOARD + 1)
        pick = rng.choice(N_CHEESES, k, replace=False)
        ids[i, :k], mask[i, :k] = pick, True
        aff[i] = cheese_vec[pick].mean(0) @ wine_vec.T + wine_pop
    return torch.from_numpy(ids), torch.from_numpy(mask), torch.from_numpy(aff)


def soft_targets(affinity, temperature=0.5):
    """Sommelier affinities -> target distribution over the wine list."""
    return torch.softmax(affinity / temperature, dim=0)
