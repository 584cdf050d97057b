import numpy as np


def _inputs(rng, n):
    weight = rng.uniform(0.3, 2.5, n)       # kg
    temp = rng.uniform(1050, 1180, n)        # C
    reheats = rng.integers(1, 7, n)
    pressure = rng.uniform(0.5, 2.0, n)
    pull = rng.uniform(10, 40, n)            # cm
    work = rng.uniform(2, 12, n)             # min
    return np.column_stack([weight, temp, reheats, pressure, pull, work])


def thin_shell(X):
    weight, temp, reheats, pressure, pull, work = X.T
    visc = np.exp((1180 - temp) / 60.0)
    radius = 4 + 6 * pressure / visc ** 0.5
    return 10 * weight / (radius * pull * 0.3)  # mm, crude mass balance


def simulator(n, seed):
    rng = np.random.default_rng(seed)
    X = _inputs(rng, n)
    return X, thin_shell(X)


def workshop(n, seed):
    """Measured pieces: the simulator misses cooling during reheats and long working times."""
    rng = np.random.default_rng(seed)
    X = _inputs(rng, n)
    y = thin_shell(X) * (1 + 0.04 * X[:, 2]) + 0.05 * X[:, 5] + rng.normal(0, 0.08, n)
    return X, y


def scale(X):
    lo = np.array([0.3, 1050, 1, 0.5, 10, 2])
    hi = np.array([2.5, 1180, 6, 2.0, 40, 12])
    return ((X - lo) / (hi - lo)).astype(np.float32)
