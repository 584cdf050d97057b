import numpy as np

ALPHABET = 26


def markov_chain(seed):
    rng = np.random.default_rng(seed)
    # sparse, peaky transitions like a real language's bigrams
    T = rng.dirichlet(np.full(ALPHABET, 0.15), size=ALPHABET)
    start = rng.dirichlet(np.ones(ALPHABET))
    return start, T


def sample_text(rng, start, T, length):
    out = np.empty(length, dtype=np.int64)
    out[0] = rng.choice(ALPHABET, p=start)
    for i in range(1, length):
        out[i] = rng.choice(ALPHABET, p=T[out[i - 1]])
    return out


def near_miss(rng, text, n_swaps):
    """Apply a key that differs from the identity by a few letter swaps."""
    key = np.arange(ALPHABET)
    for _ in range(n_swaps):
        a, b = rng.choice(ALPHABET, 2, replace=False)
        key[[a, b]] = key[[b, a]]
    return key[text]


def make_pairs(n, length, seed, chain_seed=0):
    rng = np.random.default_rng(seed)
    start, T = markov_chain(chain_seed)
    X = np.empty((n, length), dtype=np.int64)
    y = np.empty(n, dtype=np.float32)
    for i in range(n):
        text = sample_text(rng, start, T, length)
        if i % 2 == 0:
            X[i], y[i] = text, 1.0
        else:
            X[i], y[i] = near_miss(rng, text, rng.integers(1, 4)), 0.0
    return X, y
