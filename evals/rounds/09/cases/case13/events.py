import numpy as np

CLASSES = ["earthquake", "quarry_blast", "mine_collapse", "sonic_boom"]


def simulate_events(n, rng, d=14):
    proto = np.random.default_rng(7).normal(0, 1.0, size=(len(CLASSES), d))
    mix = np.random.default_rng(8).normal(0, 1.0, size=(d, d)) / np.sqrt(d)
    y = rng.integers(0, len(CLASSES), n)
    z = proto[y] + rng.normal(0, 1.3, size=(n, d))
    x = np.tanh(z @ mix) * 3 + 0.3 * z
    return x.astype(np.float32), y.astype(np.int64)
