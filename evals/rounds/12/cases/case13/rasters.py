"""Synthetic 4-band field rasters (blue, red, NIR, SWIR), 16x16 px, and a yield label.

Yield (t/ha) follows canopy vigour (NDVI over the field), water stress (SWIR)
and the share of bare soil patches.
"""
import numpy as np

BANDS = ["blue", "red", "nir", "swir"]


def _smooth_field(rng, size):
    f = rng.normal(size=(size + 4, size + 4))
    k = np.ones(5) / 5
    f = np.apply_along_axis(lambda r: np.convolve(r, k, "valid"), 0, f)
    f = np.apply_along_axis(lambda r: np.convolve(r, k, "valid"), 1, f)
    return f / f.std()


def make_fields(n, size=16, seed=0):
    rng = np.random.default_rng(seed)
    X = np.zeros((n, 4, size, size), np.float32)
    y = np.zeros(n, np.float32)
    for i in range(n):
        vigour = rng.uniform(0.2, 0.9)
        water = rng.uniform(0.0, 1.0)
        canopy = np.clip(vigour + 0.15 * _smooth_field(rng, size), 0, 1)
        bare = _smooth_field(rng, size) > rng.uniform(0.8, 2.5)
        canopy[bare] = 0.05
        # reflectances in raw digital numbers, like a level-2 product
        red = 1200 - 900 * canopy + rng.normal(0, 40, (size, size))
        nir = 1800 + 2500 * canopy + rng.normal(0, 80, (size, size))
        blue = 700 - 300 * canopy + rng.normal(0, 30, (size, size))
        swir = 2200 - 1200 * water * canopy + rng.normal(0, 60, (size, size))
        X[i] = np.stack([blue, red, nir, swir])
        ndvi = ((nir - red) / (nir + red)).mean()
        y[i] = 2.0 + 9.0 * ndvi * (0.6 + 0.4 * water) - 3.0 * bare.mean() + rng.normal(0, 0.25)
    return X, y


def band_stats(X):
    """Per-band mean/std over all pixels of the training rasters."""
    return X.mean(axis=(0, 2, 3), keepdims=True), X.std(axis=(0, 2, 3), keepdims=True)
