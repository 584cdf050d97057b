import numpy as np

N_ITEMS = 60
N_CUISINES = 10
PAD = N_ITEMS          # padding index


def simulate(n, seed, max_len=8):
    rng = np.random.default_rng(seed)
    prof_rng = np.random.default_rng(123)
    core = [prof_rng.choice(N_ITEMS, 9, replace=False) for _ in range(N_CUISINES)]
    items = np.full((n, max_len), PAD, np.int64)
    target = np.zeros(n, np.int64)
    for i in range(n):
        c = rng.integers(N_CUISINES)
        k = rng.integers(3, max_len + 1)
        basket = rng.choice(core[c], size=k, replace=False)
        if rng.random() < 0.25:                 # an impulse buy from elsewhere in the market
            basket[rng.integers(k)] = rng.choice(np.setdiff1d(np.arange(N_ITEMS), basket))
        # the last one added is the one to predict; the others are the context
        target[i] = basket[-1]
        items[i, :k - 1] = basket[:-1]
    return items, target
