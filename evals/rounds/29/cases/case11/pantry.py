import numpy as np

N_ITEMS = 40
N_NUTR = 8
MAX_SET = 12


def pantry_table(seed=2024):
    """Per-item nutrition facts, standardized (fixed for the pantry)."""
    rng = np.random.default_rng(seed)
    facts = rng.normal(0, 1, (N_ITEMS, N_NUTR)).astype(np.float32)
    return facts


def make_packs(n, seed):
    rng = np.random.default_rng(seed)
    facts = pantry_table()
    kcal, protein, weight, shelf = facts[:, 0], facts[:, 1], facts[:, 4], facts[:, 5]
    items = np.zeros((n, MAX_SET), np.int64)
    mask = np.zeros((n, MAX_SET), np.float32)
    label = np.zeros(n, np.int64)
    for i in range(n):
        k = rng.integers(4, MAX_SET + 1)
        chosen = rng.choice(N_ITEMS, k, replace=True)
        items[i, :k] = chosen
        mask[i, :k] = 1
        days = (kcal[chosen].sum() + 0.5 * protein[chosen].sum()
                + 0.6 * np.minimum(shelf[chosen], 0).sum() - 0.3 * weight[chosen].sum()
                + 0.6 * k)
        label[i] = np.digitize(days, [3.5, 6.5])
    return items, mask, label
