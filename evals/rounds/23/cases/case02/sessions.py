import numpy as np


def wrap(a):
    """Wrap radians to [-pi, pi)."""
    return (a + np.pi) % (2 * np.pi) - np.pi


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    wind_dir = rng.uniform(-np.pi, np.pi, n)
    wind_kn = rng.uniform(12, 35, n)
    tide_dir = rng.uniform(-np.pi, np.pi, n)
    tide_kn = rng.uniform(0, 3, n)
    goofy = rng.integers(0, 2, n)          # stance: 0 regular, 1 goofy
    tack = rng.integers(0, 2, n)           # 0 starboard, 1 port
    # riders point higher in strong wind, and get pushed downstream by the tide
    off_wind = np.deg2rad(110 - 1.2 * (wind_kn - 12) + 6 * goofy)
    sign = np.where(tack == 0, 1.0, -1.0)
    heading = wind_dir + np.pi + sign * (np.pi - off_wind)
    heading += np.deg2rad(8) * tide_kn * np.sin(tide_dir - heading)
    heading = wrap(heading + rng.normal(0, np.deg2rad(4), n))
    X = np.stack([
        np.cos(wind_dir), np.sin(wind_dir), (wind_kn - 23) / 7,
        np.cos(tide_dir) * tide_kn, np.sin(tide_dir) * tide_kn,
        goofy * 2.0 - 1, tack * 2.0 - 1,
    ], axis=1).astype(np.float32)
    return X, heading.astype(np.float32)
