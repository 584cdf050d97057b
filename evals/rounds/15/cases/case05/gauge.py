import numpy as np

# (period in hours, amplitude in m)
CONSTITUENTS = {"M2": (12.4206, 1.10), "S2": (12.0, 0.38), "N2": (12.6583, 0.22),
                "K1": (23.9345, 0.30), "O1": (25.8193, 0.21)}


def harbour_record(hours, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(hours, dtype=np.float64)
    level = np.zeros(hours)
    for period, amp in CONSTITUENTS.values():
        level += amp * np.cos(2 * np.pi * t / period + rng.uniform(0, 2 * np.pi))
    surge = np.zeros(hours)
    e = rng.normal(0, 0.03, size=hours)
    for i in range(1, hours):
        surge[i] = 0.97 * surge[i - 1] + e[i]
    return (level + surge + rng.normal(0, 0.02, size=hours)).astype(np.float32)
