import numpy as np


def customers(n, seed, d=10):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d)).astype(np.float32)
    engagement = x[:, 0] + 0.5 * x[:, 1]
    propensity = 1 / (1 + np.exp(-1.2 * engagement))
    t = (rng.random(n) < propensity).astype(np.float32)
    mu0 = 1.0 + x[:, 0] + 0.5 * x[:, 2] ** 2 - 0.7 * x[:, 3]
    tau = 1.5 * np.tanh(x[:, 4]) + 0.8 * (x[:, 5] > 0) + 0.5
    y = mu0 + t * tau + 0.3 * rng.normal(size=n)
    return x, t, y.astype(np.float32), tau.astype(np.float32)
