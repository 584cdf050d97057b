import numpy as np

WIN = 40


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(WIN) / 50.0
    X = np.empty((n, 6, WIN), np.float32)
    angle = rng.uniform(-np.pi, np.pi, n)
    for i in range(n):
        rate = rng.uniform(0.8, 1.6) * 2 * np.pi          # stroke rate, rad/s
        phase = angle[i] - rate * t[-1]                    # angle at the last sample
        a = phase + rate * t
        X[i, 0] = rate + 0.3 * rng.normal(size=WIN)
        X[i, 1] = np.cos(a) + 0.3 * rng.normal(size=WIN)
        X[i, 2] = np.sin(a) + 0.3 * rng.normal(size=WIN)
        X[i, 3] = 9.81 * np.cos(a) + rng.normal(0, 1.0, WIN)
        X[i, 4] = 9.81 * np.sin(a) + rng.normal(0, 1.0, WIN)
        X[i, 5] = rng.normal(0, 1.0, WIN)
    X[:, 3:] /= 9.81
    return X, angle.astype(np.float32)
