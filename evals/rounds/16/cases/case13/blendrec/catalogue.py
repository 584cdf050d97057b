import numpy as np

N_INGREDIENTS = 40
MAX_SET = 6
PAD = -1


def simulate_blends(n, seed):
    rng = np.random.default_rng(seed)
    world = np.random.default_rng(1234)  # the shop's "true" tastes are fixed across runs
    quality = world.normal(0, 0.6, N_INGREDIENTS)
    flavour = world.normal(0, 1, (N_INGREDIENTS, 3))  # e.g. floral, smoky, sweet
    sets = np.full((n, MAX_SET), PAD, dtype=np.int64)
    rating = np.zeros(n, dtype=np.float32)
    for i in range(n):
        k = rng.integers(2, MAX_SET + 1)
        items = rng.choice(N_INGREDIENTS, k, replace=False)
        sets[i, :k] = items
        f = flavour[items]
        balance = -0.5 * np.abs(f.mean(0)).sum()        # clashing profiles lose points
        rating[i] = 3.2 + quality[items].mean() * 1.6 + balance + rng.normal(0, 0.15)
    return sets, np.clip(rating, 1, 5).astype(np.float32)
