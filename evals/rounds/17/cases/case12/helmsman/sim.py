import numpy as np


def simulate(n, seed, steps=6):
    """Sensor windows and the true heading (degrees, -180..180) at the end of each window."""
    rng = np.random.default_rng(seed)
    heading = rng.uniform(-np.pi, np.pi, n)
    true_wind_dir = rng.uniform(-np.pi, np.pi, n)
    feats = []
    for k in range(steps):
        drift = rng.normal(0, 0.06, n) * (steps - k)
        h = heading - drift
        awa = np.angle(np.exp(1j * (true_wind_dir - h)))
        bsp = 2.5 + 1.5 * np.abs(np.sin(awa)) + rng.normal(0, 0.1, n)
        gps_dx = bsp * np.sin(h) + rng.normal(0, 0.9, n)
        gps_dy = bsp * np.cos(h) + rng.normal(0, 0.9, n)
        heel = 12 * np.sin(awa) + rng.normal(0, 1.0, n)
        feats.append(np.stack([np.sin(awa), np.cos(awa), bsp / 3, heel / 10, gps_dx / 3, gps_dy / 3], 1))
    X = np.concatenate(feats, 1).astype(np.float32)
    return X, np.degrees(heading).astype(np.float32)
