"""Synthetic recipes: multi-hot ingredient vectors with a cuisine label."""
import numpy as np

CUISINES = ["italian", "mexican", "indian", "japanese", "french", "thai", "greek", "korean"]


def make_recipes(n, n_ingredients=300, seed=0):
    rng = np.random.default_rng(seed)
    k = len(CUISINES)
    # every cuisine has a signature set of ingredients plus a shared pantry
    pantry = rng.dirichlet(np.full(n_ingredients, 0.3))
    signature = np.zeros((k, n_ingredients))
    for c in range(k):
        own = rng.choice(n_ingredients, 25, replace=False)
        signature[c, own] = rng.dirichlet(np.full(25, 1.0))
    y = rng.integers(0, k, n)
    X = np.zeros((n, n_ingredients), np.float32)
    for i in range(n):
        m = rng.integers(6, 13)
        mix = 0.45 * signature[y[i]] + 0.55 * pantry
        picks = rng.choice(n_ingredients, m, replace=False, p=mix / mix.sum())
        X[i, picks] = 1.0
    return X, y.astype(np.int64)


def ppmi_svd_embeddings(X, dim):
    """Ingredient vectors from co-occurrence (PPMI + truncated SVD), label-free."""
    co = X.T @ X
    np.fill_diagonal(co, 0)
    total = co.sum()
    row = co.sum(1, keepdims=True)
    pmi = np.log((co * total + 1e-9) / (row @ row.T + 1e-9))
    ppmi = np.maximum(pmi, 0)
    u, s, _ = np.linalg.svd(ppmi)
    emb = u[:, :dim] * np.sqrt(s[:dim])
    return (emb / (np.linalg.norm(emb, axis=1, keepdims=True) + 1e-8)).astype(np.float32)
