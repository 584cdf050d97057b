import numpy as np

N_GAMES = 24
TASTE_DIM = 8
MAX_PLAYERS = 6


def simulate_groups(n_groups, seed):
    """Returns player features [G, 6, 9], mask [G, 6] (1 = real player) and chosen game [G]."""
    shelf = np.random.default_rng(42).normal(0, 1, (N_GAMES, TASTE_DIM))
    rng = np.random.default_rng(seed)
    feats = np.zeros((n_groups, MAX_PLAYERS, TASTE_DIM + 1), np.float32)
    mask = np.zeros((n_groups, MAX_PLAYERS), np.float32)
    choice = np.zeros(n_groups, np.int64)
    for g in range(n_groups):
        k = rng.integers(2, MAX_PLAYERS + 1)
        taste = rng.normal(0, 1, (k, TASTE_DIM))
        host = rng.integers(k)
        weight = np.ones(k)
        weight[host] = 4.0
        utility = (weight[:, None] * (taste @ shelf.T)).sum(0) / weight.sum()
        choice[g] = int(np.argmax(utility + rng.gumbel(0, 0.15, N_GAMES)))
        feats[g, :k, :TASTE_DIM] = taste
        feats[g, host, TASTE_DIM] = 1.0
        mask[g, :k] = 1.0
    return feats, mask, choice
