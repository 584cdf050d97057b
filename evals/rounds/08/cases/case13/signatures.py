import numpy as np


class SensorModel:
    """Fixed random nonlinear map from a 6-d latent state to 40 sensor channels."""

    def __init__(self, seed=0, d_latent=6, d_obs=40):
        rng = np.random.default_rng(seed)
        self.W1 = rng.standard_normal((d_latent, 64)) / np.sqrt(d_latent)
        self.W2 = rng.standard_normal((64, d_obs)) / 8
        self.d_latent = d_latent

    def __call__(self, z):
        return np.tanh(z @ self.W1 * 1.5) @ self.W2 * 3


def make_classes(n_classes, n_per_class, sensor, rng, spread=0.35, noise=0.15):
    centers = rng.standard_normal((n_classes, sensor.d_latent))
    X, y = [], []
    for c in range(n_classes):
        z = centers[c] + spread * rng.standard_normal((n_per_class, sensor.d_latent))
        X.append(sensor(z) + noise * rng.standard_normal((n_per_class, 40)))
        y += [c] * n_per_class
    return np.concatenate(X).astype(np.float32), np.array(y)


def build(seed=123):
    rng = np.random.default_rng(seed)
    sensor = SensorModel(seed)
    base = make_classes(64, 40, sensor, rng)
    novel = make_classes(20, 40, sensor, rng)
    return base, novel
