"""Synthetic booking log for a hut network."""
import numpy as np

N_HUTS = 60
REGISTRY_COLS = ["altitude_km", "beds_log", "hours_from_valley", "shower", "glacier_access", "rail_access"]


def make_registry(rng):
    reg = np.stack([
        rng.uniform(1.5, 3.6, N_HUTS),
        np.log(rng.integers(20, 160, N_HUTS)),
        rng.uniform(1, 6, N_HUTS),
        rng.random(N_HUTS) < 0.4,
        rng.random(N_HUTS) < 0.3,
        rng.random(N_HUTS) < 0.5,
    ], axis=1).astype(np.float32)
    # what the registry does not tell you: reputation, guidebook mentions, warden
    popularity = rng.normal(0, 1.0, N_HUTS)
    season_shift = rng.normal(0, 0.8, N_HUTS)
    return reg, popularity, season_shift


def make_nights(n, reg, popularity, season_shift, rng):
    hut = rng.integers(0, N_HUTS, n)
    doy = rng.integers(0, 365, n)
    dow = rng.integers(0, 7, n)
    sun = rng.uniform(0, 1, n)            # forecast sunshine fraction
    holiday = rng.random(n) < 0.1
    season = np.cos(2 * np.pi * (doy - 200 - 40 * season_shift[hut]) / 365)
    z = (0.3 + 1.2 * season + 1.6 * popularity[hut] + 0.6 * (dow >= 5) + 0.7 * holiday
         + 1.1 * (sun - 0.5) - 0.25 * reg[hut, 2] + 0.4 * reg[hut, 4] * season)
    occ = 1 / (1 + np.exp(-z)) + rng.normal(0, 0.04, n)
    ctx = np.stack([np.sin(2 * np.pi * doy / 365), np.cos(2 * np.pi * doy / 365), dow >= 5, holiday, sun],
                   axis=1).astype(np.float32)
    return hut, ctx, np.clip(occ, 0, 1).astype(np.float32)
