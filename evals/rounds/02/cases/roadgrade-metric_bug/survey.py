import numpy as np

N_GRADES = 5
COLUMNS = ["rms_0_5hz", "rms_5_20hz", "rms_20_50hz", "peak_count", "crest_factor",
           "speed_kmh", "lane_offset", "temp_c", "tyre_pressure", "kurtosis"]


def simulate_segments(n, seed):
    rng = np.random.default_rng(seed)
    damage = rng.gamma(2.0, 1.0, n)                         # latent roughness
    speed = rng.uniform(20, 90, n)
    x = np.stack([
        0.5 * damage * (speed / 50) + 0.3 * rng.normal(size=n),
        0.8 * damage * (speed / 50) ** 1.5 + 0.3 * rng.normal(size=n),
        0.4 * np.sqrt(damage) + 0.3 * rng.normal(size=n),
        rng.poisson(1 + 2 * damage),
        2 + 0.5 * damage + 0.5 * rng.normal(size=n),
        speed,
        rng.normal(size=n),
        rng.uniform(-5, 30, n),
        rng.normal(2.3, 0.1, n),
        3 + damage + rng.normal(size=n),
    ], 1)
    cuts = np.array([1.0, 2.0, 3.2, 4.8])
    grade = np.searchsorted(cuts, damage + 0.25 * rng.normal(size=n))
    return x.astype(np.float32), grade.astype(np.int64)
