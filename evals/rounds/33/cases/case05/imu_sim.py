import numpy as np

CLASSES = ["clean", "sketchy", "bail", "primo"]


def landing_window(kind, rng, T=64):
    t = np.arange(T) / 100.0
    x = rng.normal(0, 0.25, (6, T))
    impact = rng.integers(20, 30)
    spike = np.exp(-((np.arange(T) - impact) ** 2) / 6.0)
    if kind == 0:      # clean: one sharp vertical spike, quiet after
        x[2] += 3.0 * spike
    elif kind == 1:    # sketchy: spike then roll wobble
        x[2] += 2.2 * spike
        x[3] += 1.2 * np.sin(2 * np.pi * 6 * t) * (np.arange(T) > impact)
    elif kind == 2:    # bail: board flips away, gyro spins
        x[5] += 2.5 * (np.arange(T) > impact)
        x[0] += 1.5 * spike
    else:              # primo: lands on the rail, lateral accel
        x[1] += 2.0 * spike
        x[4] += 1.0 * np.cos(2 * np.pi * 3 * t)
    return x.astype(np.float32)


def make_sessions(n_per_class, T, seed):
    """Recordings are stored per trick type, as they came from the labelling tool."""
    rng = np.random.default_rng(seed)
    X, y = [], []
    for k in range(len(CLASSES)):
        for _ in range(n_per_class):
            X.append(landing_window(k, rng, T))
            y.append(k)
    return np.stack(X), np.array(y, dtype=np.int64)
