import numpy as np


def make_table(n_rows, n_features, latent_dim, noise, seed):
    """Correlated mixed-shape columns driven by a low-dimensional latent factor."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((n_rows, latent_dim))
    A = rng.standard_normal((latent_dim, n_features))
    B = rng.standard_normal((latent_dim, n_features)) * 0.5
    x = np.tanh(z @ A) + 0.5 * (z @ B) ** 2 / latent_dim
    x += noise * rng.standard_normal(x.shape)
    x = (x - x.mean(0)) / x.std(0)
    n_val = n_rows // 5
    return x[n_val:].astype(np.float32), x[:n_val].astype(np.float32)
