import numpy as np

WIN = 64


def windows(n, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(WIN)
    y = (rng.random(n) < 0.3).astype(np.float32)
    tide = rng.uniform(0.5, 1.5, n)
    rot = rng.uniform(0.15, 0.35, n)
    x = 800 + 300 * tide[:, None] * np.sin(rot[:, None] * t[None, :] + rng.uniform(0, 6, (n, 1)))
    x += rng.normal(0, 25, (n, WIN))
    # delamination: a second, slightly detuned component and a DC creep
    anom = y[:, None] * (20 * np.sin(1.7 * rot[:, None] * t[None, :]) + 8)
    return (x + anom).astype(np.float32), y
