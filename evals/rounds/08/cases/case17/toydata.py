import numpy as np


def make_blobs_manifold(n=3000, k=5, d_latent=4, d_obs=30, seed=8):
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((k, d_latent)) * 2.2
    y = rng.integers(0, k, n)
    z = centers[y] + rng.standard_normal((n, d_latent)) * 0.9
    W1 = rng.standard_normal((d_latent, 32))
    W2 = rng.standard_normal((32, d_obs)) / 4
    x = np.tanh(z @ W1 / 2) @ W2 + 0.05 * rng.standard_normal((n, d_obs))
    x = (x - x.mean(0)) / x.std(0)
    return x.astype(np.float32), y
