import numpy as np


def simulate_winters(n_lakes, days=180, seed=0):
    """Inputs [n, days, 3] (air temp C / 10, snowfall cm / 10, depth class) and ice [n, days] in cm."""
    rng = np.random.default_rng(seed)
    d = np.arange(days)
    X = np.zeros((n_lakes, days, 3), np.float32)
    ice = np.zeros((n_lakes, days), np.float32)
    for k in range(n_lakes):
        mean_t = -12 * np.sin(np.pi * d / days) + rng.normal(2, 2)
        temp = mean_t + np.convolve(rng.normal(0, 4, days), np.ones(5) / 5, mode="same")
        snow = (rng.random(days) < 0.15) * rng.exponential(4, days)
        depth = rng.integers(0, 3)
        h, snowpack = 0.0, 0.0
        for t in range(days):
            snowpack = max(0.0, 0.9 * snowpack + snow[t] - max(temp[t], 0) * 0.5)
            insul = 1.0 / (1.0 + 0.08 * snowpack)
            if temp[t] < 0:
                fdd = -temp[t] * (1.0 - 0.15 * depth)
                h = np.sqrt(h ** 2 + 12.0 * fdd * insul)
            else:
                h = max(0.0, h - 0.9 * temp[t])
            ice[k, t] = h
        X[k, :, 0] = temp / 10
        X[k, :, 1] = snow / 10
        X[k, :, 2] = depth - 1
    return X, ice
