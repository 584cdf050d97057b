import numpy as np


def simulate(n_mol, n_bits, seed):
    rng = np.random.default_rng(seed)
    density = rng.uniform(0.02, 0.08, size=(n_mol, 1))
    fp = (rng.random((n_mol, n_bits)) < density).astype(np.float32)
    contrib = rng.normal(0, 0.35, n_bits) * (rng.random(n_bits) < 0.3)
    pairs = rng.integers(0, n_bits, size=(40, 2))
    pair_w = rng.normal(0, 0.8, 40)
    logs = -2.5 + fp @ contrib - 1.2 * (fp.sum(1) / n_bits / 0.05 - 1)
    logs += (fp[:, pairs[:, 0]] * fp[:, pairs[:, 1]]) @ pair_w
    logs += rng.normal(0, 0.3, n_mol)
    return fp, logs.astype(np.float32)
