"""Synthetic daily till logs with gaps."""
import numpy as np

FIELDS = ["units", "receipts", "footfall", "basket"]


def simulate(n_shops, days, missing_rate, promo_rate, seed):
    rng = np.random.default_rng(seed)
    logs = np.empty((n_shops, days, len(FIELDS)), np.float32)
    promo = (rng.random((n_shops, days)) < promo_rate).astype(np.float32)
    for s in range(n_shops):
        size = rng.lognormal(3.0, 0.5)
        weekly = 1 + 0.3 * np.sin(2 * np.pi * np.arange(days) / 7 + rng.uniform(0, 6.28))
        trend = 1 + rng.normal(0, 0.003) * np.arange(days)
        base = size * weekly * trend
        lift = 1 + promo[s] * rng.uniform(0.25, 0.6, days)
        footfall = base * 4 * (1 + 0.1 * promo[s]) * rng.lognormal(0, 0.15, days)
        receipts = base * lift * rng.lognormal(0, 0.12, days)
        units = receipts * (1.4 + 0.5 * promo[s]) * rng.lognormal(0, 0.1, days)
        basket = units / receipts
        logs[s] = np.stack([units, receipts, footfall, basket], 1)
    gaps = rng.random((n_shops, days)) < missing_rate
    logs[gaps] = np.nan
    return logs, promo
