import numpy as np


def synth(n, bins=64, seed=0):
    rng = np.random.default_rng(seed)
    grade = rng.integers(0, 5, n)
    frac = (grade + rng.uniform(-0.35, 0.35, n)).clip(0, 4.4) / 5.0
    w = np.linspace(0, 1, bins)
    crocin = np.exp(-0.5 * ((w - 0.3) / 0.07) ** 2)
    cutter = np.exp(-0.5 * ((w - 0.62) / 0.05) ** 2) + 0.5 * np.exp(-0.5 * ((w - 0.8) / 0.04) ** 2)
    base = rng.uniform(0.1, 0.4, (n, 1)) + rng.uniform(-0.2, 0.2, (n, 1)) * w
    X = base + (1 - frac)[:, None] * crocin + frac[:, None] * cutter
    X = X * rng.uniform(0.8, 1.2, (n, 1)) + rng.normal(0, 0.02, (n, bins))
    return X.astype(np.float32), grade.astype(np.int64)
