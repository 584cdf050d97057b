import numpy as np


def simulate_stores(n_stores=24, n_days=600, seed=7):
    """Daily unit sales with weekly seasonality, slow trend, promotions and AR noise."""
    rng = np.random.default_rng(seed)
    t = np.arange(n_days)
    demand = np.zeros((n_stores, n_days))
    promo = (rng.random((n_stores, n_days)) < 0.12).astype(np.float64)
    for s in range(n_stores):
        base = rng.uniform(40, 120)
        weekly = rng.uniform(5, 20) * np.sin(2 * np.pi * t / 7 + rng.uniform(0, 2 * np.pi))
        trend = rng.uniform(-0.02, 0.05) * t
        lift = rng.uniform(10, 30)
        eps = np.zeros(n_days)
        for i in range(1, n_days):
            eps[i] = 0.7 * eps[i - 1] + rng.normal(0, 6)
        demand[s] = np.maximum(base + weekly + trend + lift * promo[s] + eps, 0.0)
    return demand, promo
