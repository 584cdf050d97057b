import numpy as np


def survey(n, seed=0):
    """Synthetic field survey. Columns: a, b, c axes (cm), distance (m), vesicularity."""
    rng = np.random.default_rng(seed)
    axes = np.exp(rng.normal(2.5, 0.6, size=(n, 3)))
    dist = rng.uniform(50, 2000, size=(n, 1))
    ves = rng.uniform(0.05, 0.6, size=(n, 1))
    density = 2700 * (1 - ves[:, 0])
    volume = (np.pi / 6) * axes.prod(1) * 1e-6  # m^3
    mass = density * volume * np.exp(rng.normal(0, 0.08, n))
    feats = np.concatenate([np.log(axes), np.log(dist), ves], 1).astype(np.float32)
    return feats, np.log10(mass).astype(np.float32)
