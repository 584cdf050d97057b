import numpy as np


def pinwheel(n, rng, arms=5, radial_std=0.3, tangential_std=0.08, rate=0.25):
    rads = np.linspace(0, 2 * np.pi, arms, endpoint=False)
    feats = rng.normal(size=(n, 2)) * np.array([radial_std, tangential_std])
    feats[:, 0] += 1.0
    labels = rng.integers(0, arms, n)
    angles = rads[labels] + rate * np.exp(feats[:, 0])
    rot = np.stack([np.cos(angles), -np.sin(angles), np.sin(angles), np.cos(angles)], 1).reshape(-1, 2, 2)
    pts = np.einsum("ni,nij->nj", feats, rot)
    return (2.0 * pts).astype(np.float32)
