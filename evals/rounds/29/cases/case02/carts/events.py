import numpy as np

EVENT_TYPES = ["hockey", "basketball", "concert", "fair"]


def event_log(n, n_entrances, seed):
    rng = np.random.default_rng(seed)
    ent_pop = np.random.default_rng(99).gamma(2.0, 1.0, n_entrances)   # fixed per arena
    entrance = rng.integers(0, n_entrances, n)
    attendance = rng.uniform(2000, 18000, n)
    start = rng.integers(12, 22, n)
    etype = rng.integers(0, len(EVENT_TYPES), n)
    temp = rng.normal(8, 9, n)
    late = (rng.random(n) < 0.15).astype(float)
    type_mult = np.array([1.0, 0.8, 1.4, 2.0])[etype]
    sales = (ent_pop[entrance] * attendance / 400 * type_mult
             * (1.0 + 0.02 * np.clip(10 - temp, 0, None))
             * (1.0 + 0.5 * late) * np.where(start < 17, 1.3, 1.0))
    sales = rng.poisson(sales).astype(np.float32)
    num = np.stack([attendance / 10000, (start - 17) / 5, temp / 10, late], 1)
    onehot = np.eye(len(EVENT_TYPES))[etype]
    return (np.concatenate([num, onehot], 1).astype(np.float32),
            entrance.astype(np.int64), sales)
