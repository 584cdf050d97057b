import numpy as np


def simulate(n_streams, length, seed, dt=0.05):
    """Three coupled damped oscillators with noise forcing, mixed into 4 channels."""
    world = np.random.default_rng(0)
    omega = np.array([1.0, 1.7, 2.9])
    K = world.standard_normal((3, 3)) * 0.3
    mix = world.standard_normal((3, 4))
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n_streams, 3))
    v = np.zeros((n_streams, 3))
    out = np.empty((n_streams, length, 4), dtype=np.float32)
    for t in range(length):
        acc = -omega ** 2 * x - 0.05 * v + np.tanh(x @ K) + 0.3 * rng.standard_normal((n_streams, 3))
        v = v + dt * acc
        x = x + dt * v
        out[:, t] = x @ mix + 0.01 * rng.standard_normal((n_streams, 4))
    return out
