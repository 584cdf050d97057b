import numpy as np


def simulate(n, length, rng):
    t = np.linspace(0, 1, length)
    flux = np.ones((n, length))
    # stellar variability + red noise + white noise
    flux += 0.002 * np.sin(2 * np.pi * (rng.uniform(0.3, 2, (n, 1)) * t + rng.uniform(0, 1, (n, 1))))
    red = np.cumsum(rng.normal(0, 0.0002, (n, length)), axis=1)
    flux += red - red.mean(1, keepdims=True)
    flux += rng.normal(0, 0.0015, (n, length))
    has = rng.random(n) < 0.5
    for i in np.flatnonzero(has):
        dur = rng.integers(4, 12)
        start = rng.integers(0, length - dur)
        depth = rng.uniform(0.004, 0.012)
        flux[i, start:start + dur] -= depth
    return flux.astype(np.float32), has.astype(np.int64)


def normalise(flux):
    """Median-normalise each light curve; deviations in units of a shallow (3 ppt) transit."""
    med = np.median(flux, axis=1, keepdims=True)
    return (flux / med - 1.0) / 3e-3
