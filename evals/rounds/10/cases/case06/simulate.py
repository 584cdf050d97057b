"""Generate a synthetic loop-detector table."""
import os

import numpy as np


def generate(n=8000, seed=7, path="data/loops.npz"):
    rng = np.random.default_rng(seed)
    hour = rng.integers(0, 24, n)
    weekday = rng.integers(0, 7, n)
    lanes = rng.integers(1, 5, n)
    rain = rng.gamma(0.4, 2.0, n) * (rng.random(n) < 0.3)
    urban = rng.random(n) < 0.5
    minutes = rng.uniform(5, 60, n)

    peak = np.exp(-0.5 * ((hour - 8) / 1.5) ** 2) + 0.8 * np.exp(-0.5 * ((hour - 17.5) / 2.0) ** 2)
    night = (hour < 5) | (hour > 22)
    workday = weekday < 5
    log_rate = (2.0 + 0.45 * lanes + 1.3 * peak * workday + 0.4 * urban
                - 1.6 * night - 0.12 * rain - 0.3 * (~workday))
    counts = rng.poisson(np.exp(log_rate) * minutes / 60.0)

    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.savez(path, hour=hour, weekday=weekday, lanes=lanes, rain=rain,
             urban=urban.astype(np.int64), minutes=minutes, counts=counts)


if __name__ == "__main__":
    generate()
