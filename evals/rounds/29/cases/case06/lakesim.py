import numpy as np


def simulate_lake(n_days=3000, seed=0):
    """Daily rainfall (mm) and lake level (cm above the long-term mean)."""
    rng = np.random.default_rng(seed)
    wet = rng.random(n_days) < 0.3 + 0.15 * np.sin(2 * np.pi * np.arange(n_days) / 365)
    rain = np.where(wet, rng.exponential(9.0, n_days), 0.0)

    # aquifer store: fills with rain, drains slowly into the lake
    store = np.zeros(n_days)
    level = np.zeros(n_days)
    for t in range(1, n_days):
        store[t] = 0.93 * store[t - 1] + rain[t - 1]
        inflow = 0.07 * store[t - 1]
        level[t] = 0.9 * level[t - 1] + 1.6 * inflow - 2.2 + rng.normal(0, 6.0)
    level -= level.mean()
    return rain.astype(np.float32), level.astype(np.float32)
