import numpy as np

MODULATIONS = ["bpsk", "qpsk", "8psk", "qam16", "qam64", "gfsk", "cpfsk", "pam4"]


def make_bursts(n, dim=24, seed=0, world_seed=21):
    """Each class is a union of 3 gaussian blobs in a latent space, embedded non-linearly."""
    world = np.random.default_rng(world_seed)
    centers = world.normal(scale=2.2, size=(len(MODULATIONS), 3, 6))
    proj = world.normal(size=(6, dim)) / np.sqrt(6)
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(MODULATIONS), n)
    blob = rng.integers(0, 3, n)
    z = centers[y, blob] + rng.normal(size=(n, 6))
    x = np.tanh(z @ proj) + 0.5 * np.sin(z @ proj[:, ::-1]) + 0.05 * rng.normal(size=(n, dim))
    return x.astype(np.float32), y.astype(np.int64)
