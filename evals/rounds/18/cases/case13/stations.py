import numpy as np


def simulate(n, seed=4):
    """Station features [n, 8] and the spot's wind direction in radians one hour later."""
    rng = np.random.default_rng(seed)
    dp_ns = rng.normal(0, 1.5, n)            # hPa difference north-south
    dp_ew = rng.normal(0, 1.5, n)            # hPa difference east-west
    land_sea = rng.normal(0, 3, n)           # land minus sea temperature (sea breeze driver)
    hour = rng.integers(0, 24, n)
    geo = np.arctan2(-dp_ew, dp_ns)           # geostrophic direction from the gradient
    breeze = np.deg2rad(250.0)                # onshore direction at this spot
    w_breeze = 1 / (1 + np.exp(-(land_sea - 1.5) * 1.2)) * (np.hypot(dp_ns, dp_ew) < 2.5)
    u = (1 - w_breeze) * np.cos(geo) + w_breeze * np.cos(breeze)
    v = (1 - w_breeze) * np.sin(geo) + w_breeze * np.sin(breeze)
    direction = np.arctan2(v, u) + rng.normal(0, 0.12, n)
    buoy = direction + rng.normal(0, 0.6, n)  # upwind buoy, an hour earlier and noisy
    feats = np.stack([dp_ns, dp_ew, land_sea / 3, np.sin(2 * np.pi * hour / 24),
                      np.cos(2 * np.pi * hour / 24), np.sin(buoy), np.cos(buoy),
                      rng.normal(0, 1, n)], 1)
    return feats.astype(np.float32), np.mod(direction, 2 * np.pi).astype(np.float32)
