"""Random framework fragments as padded dense graphs."""
import numpy as np

SPECIES = ["Si", "Al", "K", "Na", "Ca"]
CHARGE = {"K": 1, "Na": 1, "Ca": 2}
MAX_NODES = 18


def _fragment(rng):
    n_t = rng.integers(8, 14)
    al_frac = rng.uniform(0.1, 0.5)
    types = list(np.where(rng.random(n_t) < al_frac, 1, 0))
    # ring-ish tetrahedral network with some cross links
    edges = {(i, (i + 1) % n_t) for i in range(n_t)}
    for _ in range(n_t // 3):
        a, b = rng.choice(n_t, 2, replace=False)
        edges.add((int(a), int(b)))
    n_c = rng.integers(1, MAX_NODES - n_t + 1)
    for c in range(n_c):
        types.append(int(rng.choice([2, 3, 4])))
        for site in rng.choice(n_t, 2, replace=False):
            edges.add((n_t + c, int(site)))
    types = np.array(types)
    A = np.zeros((len(types), len(types)), np.float32)
    for a, b in edges:
        A[a, b] = A[b, a] = 1.0
    return types, A


def _energy(types, A):
    al = types == 1
    al_al = (A[np.ix_(al, al)].sum()) / 2            # Loewenstein violations
    cation_charge = sum(CHARGE[SPECIES[t]] for t in types if t >= 2)
    imbalance = abs(int(al.sum()) - cation_charge)
    # K prefers Al neighbours, Ca prefers Al pairs, Na indifferent
    pref = 0.0
    for i, t in enumerate(types):
        if t == 2:
            pref -= 0.4 * A[i, al].sum()
        elif t == 4:
            pref -= 0.3 * A[i, al].sum() ** 2
    return 1.5 * al_al + 0.8 * imbalance + pref


def make_dataset(n, seed):
    rng = np.random.default_rng(seed)
    X = np.zeros((n, MAX_NODES), np.int64)
    A = np.zeros((n, MAX_NODES, MAX_NODES), np.float32)
    M = np.zeros((n, MAX_NODES), np.float32)
    y = np.zeros(n, np.float32)
    for i in range(n):
        types, adj = _fragment(rng)
        k = len(types)
        X[i, :k], A[i, :k, :k], M[i, :k] = types, adj, 1.0
        y[i] = _energy(types, adj)
    return X, A, M, y
