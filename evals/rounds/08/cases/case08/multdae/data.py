import numpy as np


def synth_clicks(n_users=1500, n_items=400, n_tastes=12, seed=3):
    """Users belong to soft taste clusters; every taste prefers a subset of the
    catalogue; a mild popularity effect is shared by everyone."""
    rng = np.random.default_rng(seed)
    taste_items = rng.dirichlet(np.full(n_items, 0.08), size=n_tastes)
    popularity = rng.pareto(2.0, n_items) + 1
    popularity /= popularity.sum()
    mix = rng.dirichlet(np.full(n_tastes, 0.15), size=n_users)
    probs = 0.85 * mix @ taste_items + 0.15 * popularity
    n_clicks = rng.integers(15, 60, size=n_users)
    X = np.zeros((n_users, n_items), dtype=np.float32)
    for u in range(n_users):
        items = rng.choice(n_items, size=n_clicks[u], replace=False, p=probs[u])
        X[u, items] = 1.0
    return X


def split_users(X, n_heldout, seed=0):
    rng = np.random.default_rng(seed)
    perm = rng.permutation(X.shape[0])
    return X[perm[n_heldout:]], X[perm[:n_heldout]]


def fold_in_split(X, frac=0.2, seed=1):
    """Split each held-out user's clicks into a fold-in part and a target part."""
    rng = np.random.default_rng(seed)
    fold_in, target = X.copy(), np.zeros_like(X)
    for u in range(X.shape[0]):
        items = np.flatnonzero(X[u])
        held = rng.choice(items, size=max(1, int(frac * len(items))), replace=False)
        fold_in[u, held] = 0
        target[u, held] = 1
    return fold_in, target
