"""Tiny GPR simulator: layered firn + optional crevasse diffraction."""
import numpy as np


def simulate(n, length=128, crevasse_rate=0.4, seed=0):
    rng = np.random.default_rng(seed)
    depth = np.linspace(0.0, 1.0, length)
    X = np.zeros((n, length), dtype=np.float32)
    y = np.zeros(n, dtype=np.float32)
    for i in range(n):
        # firn layering: a few reflectors with random depth/strength
        trace = 0.15 * rng.normal(size=length)
        for _ in range(rng.integers(2, 5)):
            d0 = rng.uniform(0.05, 0.95)
            trace += rng.uniform(0.2, 0.6) * np.exp(-((depth - d0) ** 2) / 0.0004)
        trace *= np.exp(-1.5 * depth)  # attenuation
        if rng.random() < crevasse_rate:
            c = rng.uniform(0.2, 0.8)
            w = rng.uniform(0.03, 0.07)
            # void: signal drops, then a ringing edge below it
            trace -= 0.5 * np.exp(-((depth - c) ** 2) / (2 * w ** 2))
            ring = np.sin(80 * (depth - c - w)) * np.exp(-((depth - c - w) ** 2) / 0.002)
            trace += 0.35 * ring
            y[i] = 1.0
        X[i] = trace
    return X, y
