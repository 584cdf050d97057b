import numpy as np

SPEED_OF_SOUND = 343.0
METALS = ["spotted", "tin", "lead", "zinc", "wood"]


def survey(n, seed):
    """Returns features (n, 9), pitch in semitones relative to A440, and rank flags."""
    rng = np.random.default_rng(seed)
    length = np.exp(rng.uniform(np.log(0.08), np.log(2.5), n))     # m
    scale = rng.uniform(0.04, 0.12, n)                               # diameter / length at 8'
    diameter = scale * length ** 0.6
    stopped = rng.random(n) < 0.35
    cutup = rng.uniform(0.2, 0.35, n) * diameter
    pressure = rng.uniform(50, 110, n)                               # mm water column
    metal = rng.integers(0, len(METALS), n)
    eff_len = length + 0.61 * diameter + 0.3 * cutup
    f = SPEED_OF_SOUND / np.where(stopped, 4.0, 2.0) / eff_len
    f *= 1 + 0.0009 * (pressure - 80)                                # overblowing sharpens a little
    pitch = 12 * np.log2(f / 440.0) + rng.normal(0, 0.08, n)
    principal = (~stopped) & (metal < 2)
    feats = np.column_stack([
        np.log(length), np.log(diameter), cutup / diameter, pressure / 100.0,
        stopped.astype(float), np.eye(len(METALS))[metal],
    ])
    return feats[:, :9].astype(np.float32), pitch.astype(np.float32), principal
