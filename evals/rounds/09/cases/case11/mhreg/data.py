import numpy as np


def simulate_station(n, rng):
    """Proxy sensors -> (temperature degC, pressure kPa, relative humidity %)."""
    x = rng.normal(size=(n, 8)).astype(np.float32)
    temp = 15 + 6 * x[:, 0] + 2 * np.sin(x[:, 1]) + 1.5 * x[:, 2] * x[:, 3] + rng.normal(0, 0.5, n)
    pres = 101.3 + 1.2 * x[:, 4] - 0.4 * x[:, 0] + 0.3 * x[:, 5] ** 2 + rng.normal(0, 0.1, n)
    hum = np.clip(55 - 12 * np.tanh(x[:, 0]) + 8 * x[:, 6] + 5 * x[:, 7] * x[:, 1] + rng.normal(0, 2, n), 0, 100)
    y = np.stack([temp, pres, hum], 1).astype(np.float32)
    return x, y
