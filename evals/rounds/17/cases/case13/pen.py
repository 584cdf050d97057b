import numpy as np


def trace(rng, length, nib_angle):
    theta = rng.uniform(0, 2 * np.pi)
    speed = 1.0
    ink = 0.5
    out = np.zeros((length, 3), dtype=np.float32)
    width = np.zeros(length, dtype=np.float32)
    for t in range(length):
        theta += rng.normal(0, 0.25)
        speed = np.clip(speed + rng.normal(0, 0.1), 0.2, 2.0)
        pressure = np.clip(0.6 + 0.3 * np.sin(t / 17.0) + rng.normal(0, 0.05), 0.05, 1.0)
        if rng.random() < 0.01:          # pen lifted and re-dipped
            ink = 1.0
        ink = 0.995 * ink
        dx, dy = speed * np.cos(theta), speed * np.sin(theta)
        w = 0.4 + 2.6 * abs(np.sin(theta - nib_angle)) * (0.5 + 0.5 * pressure) * (0.6 + 0.4 * ink)
        out[t] = (dx, dy, pressure)
        width[t] = w + rng.normal(0, 0.05)
    return out, width


def make_traces(n, length, seed):
    rng = np.random.default_rng(seed)
    nib_angle = np.deg2rad(40.0)         # the writer holds the nib at a fixed angle
    X, Y = zip(*(trace(rng, length, nib_angle) for _ in range(n)))
    return np.stack(X), np.stack(Y)
