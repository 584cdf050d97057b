import numpy as np

# (name, typical value, spread) of each furnace channel
CHANNELS = [
    ("melt_temp_K", 1810.0, 35.0),
    ("pour_temp_K", 1750.0, 30.0),
    ("chamber_kPa", 101.0, 4.0),
    ("carbon_ppm", 4200.0, 600.0),
    ("manganese_ppm", 9000.0, 1500.0),
    ("silicon_ppm", 2500.0, 400.0),
    ("cool_rate_Ks", 12.0, 3.0),
    ("hold_min", 45.0, 10.0),
]


def make_dataset(n, seed):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, len(CHANNELS)))
    # grade depends on a couple of nonlinear combos of the standardized channels
    s1 = z[:, 0] - 0.8 * z[:, 3] + 0.5 * z[:, 6] * z[:, 1]
    s2 = z[:, 4] + 0.7 * z[:, 5] - 0.6 * z[:, 7]
    y = (s1 > 0).astype(np.int64) * 2 + (s2 > 0).astype(np.int64)
    mu = np.array([c[1] for c in CHANNELS])
    sd = np.array([c[2] for c in CHANNELS])
    X = (z * sd + mu).astype(np.float32)
    return X, y


def kfold_indices(n, k, seed):
    rng = np.random.default_rng(seed)
    perm = rng.permutation(n)
    return np.array_split(perm, k)
