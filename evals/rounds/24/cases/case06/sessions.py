import numpy as np

SHOWERS = {"perseids": 100, "geminids": 150, "quadrantids": 110, "orionids": 20,
           "lyrids": 18, "leonids": 15, "eta_aquariids": 50, "draconids": 10}


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    names = list(SHOWERS)
    shower = rng.integers(0, len(names), n)
    zhr = np.array([SHOWERS[names[s]] for s in shower], float)
    days_from_peak = rng.uniform(-3, 3, n)
    activity = zhr * np.exp(-np.abs(days_from_peak) / 0.8)
    alt = rng.uniform(5, 85, n)
    lm = rng.uniform(4.0, 6.8, n)
    r = rng.uniform(2.0, 3.0, n)          # population index
    cloud = rng.beta(1.2, 3.0, n)
    moon = rng.uniform(0, 1, n)
    lm_eff = lm - 1.2 * moon
    rate = activity * np.sin(np.radians(alt)) * (1 - cloud) / r ** (6.5 - lm_eff)
    counts = rng.poisson(np.maximum(rate, 0) + 0.5)
    X = np.column_stack([np.eye(len(names))[shower], days_from_peak, alt / 90, lm, r, cloud, moon])
    return X.astype(np.float32), counts.astype(np.float32)
