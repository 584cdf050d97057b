import numpy as np

T = 64


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    t = np.linspace(0, 1, T)
    x = np.zeros((n, 4, T), np.float32)
    split = np.zeros(n, np.float32)
    touch = np.zeros(n, np.float32)
    for i in range(n):
        cadence = rng.uniform(0.9, 1.6)          # strokes per second
        power = rng.uniform(0.6, 1.4)
        turn = rng.uniform(-1, 1)                # upstream gate -> hard turn
        dur = 7.0 / (0.6 * power + 0.4 * cadence) + 1.5 * abs(turn) + rng.normal(0, 0.15)
        stroke = power * np.sin(2 * np.pi * cadence * dur * t)
        x[i, 0] = stroke + rng.normal(0, 0.2, T)
        x[i, 1] = 0.5 * np.sign(np.sin(np.pi * cadence * dur * t)) * power + rng.normal(0, 0.2, T)
        x[i, 2] = rng.normal(0, 0.3, T)
        x[i, 3] = turn * np.exp(-((t - 0.5) / 0.15) ** 2) * 2.0 + rng.normal(0, 0.15, T)
        if rng.random() < 0.3:
            touch[i] = 1.0
            c = rng.integers(8, T - 8)
            x[i, 2, c - 2:c + 3] += rng.uniform(1.5, 3.0)   # jolt when the hull/paddle hits the pole
        split[i] = dur
    return x, split, touch
