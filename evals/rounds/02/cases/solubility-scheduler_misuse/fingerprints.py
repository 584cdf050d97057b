import numpy as np


def simulate(n, n_bits=256, seed=0, world_seed=4):
    world = np.random.default_rng(world_seed)
    bit_freq = world.uniform(0.02, 0.25, n_bits)
    contrib = world.normal(0, 0.35, n_bits)
    pairs = world.integers(0, n_bits, size=(40, 2))
    pair_w = world.normal(0, 0.5, 40)

    rng = np.random.default_rng(seed)
    fp = (rng.random((n, n_bits)) < bit_freq).astype(np.float32)
    logs = -2.0 + fp @ contrib + (fp[:, pairs[:, 0]] * fp[:, pairs[:, 1]]) @ pair_w
    logs += 0.3 * rng.normal(size=n)
    return fp, logs.astype(np.float32)
