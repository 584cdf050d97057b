import numpy as np

STAGES = 5
FEATURES = ["ph", "acidity", "co2", "salinity", "temp_c", "days", "sensor_a", "sensor_b"]


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    temp = rng.uniform(2, 22, n)
    days = rng.uniform(0, 40, n)
    salinity = rng.uniform(1.5, 3.5, n)
    # ripeness: temperature-accelerated, salt-slowed (Q10-ish)
    ripeness = days * 2 ** ((temp - 10) / 8) / (salinity / 2.5)
    ripeness += rng.normal(0, 1.5, n)
    ph = 6.2 - 2.2 * (1 - np.exp(-ripeness / 12)) + rng.normal(0, 0.08, n)
    acidity = 0.2 + 0.05 * ripeness + rng.normal(0, 0.08, n)
    co2 = np.exp(-((ripeness - 10) / 8) ** 2) * 4 + rng.normal(0, 0.3, n)
    X = np.stack([ph, acidity, co2, salinity, temp, days,
                  rng.normal(0, 1, n), rng.normal(0, 1, n)], 1).astype(np.float32)
    cuts = np.array([3, 8, 15, 25])
    y = np.searchsorted(cuts, ripeness).astype(np.int64)
    return X, y
