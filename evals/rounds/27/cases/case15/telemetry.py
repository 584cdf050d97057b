import numpy as np

T = 100


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 0.5, T)
    speed = rng.uniform(7.0, 9.5, n)          # m/s
    grip = rng.uniform(4.0, 5.0, n)           # m
    plant = rng.uniform(0.30, 0.42, n)        # s, plant instant inside the window
    stiff = rng.uniform(0.8, 1.2, n)
    X = np.empty((n, 3, T), np.float32)
    for i in range(n):
        after = np.clip(t - plant[i], 0, None)
        bend = stiff[i] * speed[i] ** 2 / grip[i] * (1 - np.exp(-after / 0.04)) * (after > 0)
        stride = np.sin(2 * np.pi * speed[i] / 2.2 * t) * (t < plant[i])
        X[i, 0] = bend / 10 + rng.normal(0, 0.05, T)
        X[i, 1] = speed[i] / 8 * stride + 3.0 * np.exp(-((t - plant[i]) / 0.01) ** 2) + rng.normal(0, 0.1, T)
        X[i, 2] = np.abs(stride) * speed[i] / 9 + rng.normal(0, 0.05, T)
    force = 0.02 * speed ** 2 * stiff * (5.0 / grip) ** 0.5 + 0.6 * (plant - 0.36) + rng.normal(0, 0.03, n)
    return X, force.astype(np.float32)
