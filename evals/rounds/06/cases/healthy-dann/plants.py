import math

import numpy as np


def readings(n, seed, shifted):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, 8))
    y = ((z[:, 0] + 0.8 * np.sin(2 * z[:, 1]) + 0.5 * z[:, 2] * z[:, 3]) > 0).astype(np.int64)
    x = z.copy()
    if shifted:
        a = math.radians(35)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        x[:, :2] = x[:, :2] @ rot.T
        x = x * np.array([1.4, 0.8, 1.2, 1.0, 1.0, 0.7, 1.3, 1.0]) + np.array([0.8, -0.5, 0.3, 0, 0.5, 0, 0, -0.4])
    return x.astype(np.float32), y
