import numpy as np


def spectrum(rng, orders, kind):
    k = np.arange(1, orders + 1) / 2.0           # half orders
    rpm = rng.uniform(0.8, 1.2)
    s = 1.0 / k + 0.6 * np.exp(-((k - 3 * rpm) ** 2) / 0.1) + 0.4 * np.exp(-((k - 6 * rpm) ** 2) / 0.1)
    s *= rng.uniform(0.8, 1.2)
    if kind == 1:   # misfire: sub-harmonics at half orders
        s += 0.5 * (np.abs(k - np.round(k)) > 0.25) * np.exp(-k / 10)
    elif kind == 2:  # bearing wear: raised broadband high-order floor
        s += 0.25 * (k > 18) * rng.uniform(0.7, 1.3)
    elif kind == 3:  # loose mount: strong 1x and 2x
        s += 0.9 * np.exp(-((k - rpm) ** 2) / 0.05) + 0.5 * np.exp(-((k - 2 * rpm) ** 2) / 0.05)
    s += np.abs(rng.normal(0, 0.04, orders))
    return np.log(s + 1e-3).astype(np.float32)


def normal_set(n, orders, rng):
    return np.stack([spectrum(rng, orders, 0) for _ in range(n)])


def test_set(n, orders, anomaly_rate, rng):
    labels = (rng.random(n) < anomaly_rate).astype(np.int64)
    kinds = np.where(labels == 1, rng.integers(1, 4, n), 0)
    return np.stack([spectrum(rng, orders, int(k)) for k in kinds]), labels
