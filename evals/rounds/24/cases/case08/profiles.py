import numpy as np

HEIGHTS = np.array([20, 40, 70, 100, 140, 190, 240, 300], float)


def simulate(n_steps, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n_steps)
    u_ref = np.empty(n_steps)
    alpha = np.empty(n_steps)
    u_ref[0], alpha[0] = 8.0, 0.2
    for i in range(1, n_steps):
        diurnal = 1.5 * np.sin(2 * np.pi * t[i] / 144)
        u_ref[i] = u_ref[i - 1] + 0.05 * (8 + diurnal - u_ref[i - 1]) + rng.normal(0, 0.35)
        alpha[i] = alpha[i - 1] + 0.05 * (0.2 + 0.08 * np.cos(2 * np.pi * t[i] / 144) - alpha[i - 1]) \
            + rng.normal(0, 0.01)
    prof = u_ref[:, None] * (HEIGHTS[None] / 100.0) ** alpha[:, None]
    prof += rng.normal(0, 0.25, prof.shape)
    return prof.astype(np.float32)


def windows(prof, history):
    X = np.stack([prof[i:i + history] for i in range(len(prof) - history)])
    y = prof[history:]
    return X, y
