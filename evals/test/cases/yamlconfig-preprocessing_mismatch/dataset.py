"""Battery cell measurements -> remaining capacity (Ah).

The table is synthesized once and cached as an .npz file.
"""
import logging
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

COLUMNS = [
    "cycle_count", "mean_temp_c", "max_temp_c", "internal_resistance_mohm",
    "charge_time_min", "discharge_rate_c", "voltage_sag_mv", "rest_voltage_v",
    "storage_days", "fast_charge_share", "depth_of_discharge", "ambient_humidity",
]


def synthesize(n, seed):
    rng = np.random.default_rng(seed)
    cycles = rng.uniform(0, 1500, n)
    mean_t = rng.normal(28, 6, n)
    max_t = mean_t + rng.gamma(2.0, 3.0, n)
    resistance = 18 + 0.012 * cycles + rng.normal(0, 2.0, n)
    charge_time = rng.uniform(45, 150, n)
    rate = rng.uniform(0.2, 3.0, n)
    sag = 40 + 25 * rate + 0.8 * resistance + rng.normal(0, 5, n)
    rest_v = rng.normal(3.65, 0.05, n)
    storage = rng.exponential(60, n)
    fast_share = rng.beta(2, 5, n)
    dod = rng.uniform(0.3, 1.0, n)
    humidity = rng.uniform(20, 80, n)
    X = np.column_stack([cycles, mean_t, max_t, resistance, charge_time, rate, sag, rest_v,
                         storage, fast_share, dod, humidity]).astype(np.float32)
    fade = (0.00035 * cycles * (1 + 0.8 * fast_share) * (1 + 0.03 * np.maximum(max_t - 35, 0))
            + 0.15 * dod ** 2 + 0.0007 * storage + 0.004 * (resistance - 18))
    capacity = 5.0 * np.exp(-fade) + rng.normal(0, 0.05, n)
    return X, capacity.astype(np.float32)


def load_or_create(path, n, seed):
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        X, y = synthesize(n, seed)
        np.savez(path, X=X, y=y, columns=np.array(COLUMNS))
        log.info("synthesized %d cells -> %s", n, path)
    blob = np.load(path)
    return blob["X"], blob["y"]


def split(n, test_fraction, val_fraction, seed):
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    n_test = int(n * test_fraction)
    n_val = int(n * val_fraction)
    return order[n_test + n_val:], order[n_test:n_test + n_val], order[:n_test]
