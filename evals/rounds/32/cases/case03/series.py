import numpy as np


def gauge_series(n_days, seed):
    """Daily pond level in cm above the weir crest."""
    rng = np.random.default_rng(seed)
    level = np.zeros(n_days)
    h = 40.0
    for d in range(n_days):
        season = 6.0 * np.sin(2 * np.pi * d / 365.0)
        rain = rng.exponential(4.0) if rng.random() < 0.18 else 0.0
        sluice = 3.0 if (d % 9) in (0, 1) else 0.0
        h = h + 0.82 * (40.0 + season - h) * 0.25 + rain - sluice + rng.normal(0, 1.2)
        level[d] = h
    return level.astype(np.float32)
