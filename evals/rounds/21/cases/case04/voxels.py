import numpy as np

S = 12


def scaffold(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    porosity = np.clip(np.array([0.15, 0.35, 0.6])[y] + rng.normal(0, 0.06, n), 0.02, 0.95)
    vol = np.empty((n, 1, S, S, S), np.float32)
    for i in range(n):
        field = rng.normal(0, 1, (S, S, S))
        # smooth a bit so pores are blobs, not salt noise
        for ax in range(3):
            field = (field + np.roll(field, 1, ax) + np.roll(field, -1, ax)) / 3
        thr = np.quantile(field, porosity[i])
        vol[i, 0] = (field > thr).astype(np.float32) + rng.normal(0, 0.1, (S, S, S))
    return vol, y
