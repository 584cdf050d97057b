"""Physical-ish simulator of a wood-fired public sauna.

Humidity relaxes toward a dry baseline set by stove temperature and
ventilation; each löyly adds a spike that decays over a few minutes; the
door opening pulls humidity down. Löyly events are random (Poisson) with a
rate that depends on how many bathers are inside.
"""
import numpy as np


def simulate_log(days, steps_per_day, rng):
    n = days * steps_per_day
    t = np.arange(n)
    tod = (t % steps_per_day) / steps_per_day
    bathers = np.clip(6 + 5 * np.sin(2 * np.pi * (tod - 0.3)) + rng.normal(0, 1.5, n), 0, None)
    stove = 80 + 8 * np.sin(2 * np.pi * t / (steps_per_day * 3.1)) + rng.normal(0, 0.8, n)
    door = (rng.random(n) < 0.03 + 0.004 * bathers).astype(float)
    loyly = (rng.random(n) < 0.01 + 0.003 * bathers).astype(float)
    ladle = rng.uniform(0.5, 1.6, n) * loyly

    rh = np.empty(n)
    rh[0] = 12.0
    for i in range(1, n):
        base = 14.0 - 0.08 * (stove[i] - 80)
        rh[i] = (rh[i - 1] + 0.12 * (base - rh[i - 1]) + 9.0 * ladle[i] - 2.0 * door[i]
                 + rng.normal(0, 0.3))
    return np.stack([rh, stove, bathers, door], axis=1).astype(np.float32)
