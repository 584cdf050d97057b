import numpy as np


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    # degassing pulses: slow magmatic driver with tidal and diurnal modulation
    driver = np.zeros(n)
    for i in range(1, n):
        driver[i] = 0.995 * driver[i - 1] + rng.normal(0, 0.1)
    tide = np.sin(2 * np.pi * t / 74.5)
    diurnal = np.sin(2 * np.pi * t / 144)
    so2 = np.zeros(n)
    for i in range(2, n):
        so2[i] = 1.5 * so2[i - 1] - 0.6 * so2[i - 2] + 0.1 * driver[i] + 0.05 * tide[i] + rng.normal(0, 0.05)
    co2 = 0.8 * driver + 0.3 * np.roll(so2, 6) + rng.normal(0, 0.1, n)
    h2s = 0.5 * so2 + 0.2 * diurnal + rng.normal(0, 0.1, n)
    temp = 0.3 * driver + 0.6 * diurnal + rng.normal(0, 0.1, n)
    return np.stack([so2, co2, h2s, temp], 1).astype(np.float32)
