import numpy as np

N_SAMPLES = 128
N_ELEMENTS = 4


def ascan_batch(n, seed, flaw_rate=0.12):
    rng = np.random.default_rng(seed)
    t = np.arange(N_SAMPLES)
    y = (rng.random(n) < flaw_rate).astype(np.float32)
    x = rng.normal(0, 0.3, (n, N_ELEMENTS, N_SAMPLES))
    # back-wall echo always present
    wall = rng.integers(100, 115, n)
    for i in range(n):
        for e in range(N_ELEMENTS):
            x[i, e] += 1.0 * np.exp(-0.5 * ((t - wall[i] - e) / 2.0) ** 2) * np.sin(0.9 * t)
        if y[i]:
            pos = rng.integers(30, 90)
            amp = rng.uniform(0.5, 1.0)
            for e in range(N_ELEMENTS):
                x[i, e] += amp * np.exp(-0.5 * ((t - pos - 2 * e) / 2.0) ** 2) * np.sin(0.9 * t)
    return x.astype(np.float32), y
