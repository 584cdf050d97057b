"""Synthetic stand logbooks with gap days."""
import numpy as np

SLOW, NORMAL, RUSH = 0, 1, 2


def make_logbooks(seed, stands, days, gap_rate):
    rng = np.random.default_rng(seed)
    feats = np.zeros((stands, days, 6), dtype=np.float32)
    labels = np.zeros((stands, days), dtype=np.int64)
    gap = np.zeros((stands, days), dtype=np.float32)
    for s in range(stands):
        popularity = rng.normal(0, 0.5)
        temp = 22 + 6 * np.sin(np.arange(days) / 9.0 + rng.uniform(0, 6)) + rng.normal(0, 2.5, days)
        rain = (rng.random(days) < 0.2).astype(np.float32)
        weekday = (np.arange(days) + rng.integers(0, 7)) % 7
        weekend = (weekday >= 5).astype(np.float32)
        holiday = (rng.random(days) < 0.05).astype(np.float32)
        demand = (0.25 * (temp - 22) - 1.6 * rain + 1.2 * weekend + 1.5 * holiday
                  + popularity + rng.normal(0, 0.5, days))
        # a hot streak builds demand over a few days
        streak = np.convolve(np.maximum(temp - 25, 0), np.ones(3) / 3, mode="full")[:days]
        demand += 0.3 * streak
        lab = np.where(demand < -0.6, SLOW, np.where(demand > 0.9, RUSH, NORMAL))
        missing = rng.random(days) < gap_rate
        feats[s, :, 0] = (temp - 22) / 6
        feats[s, :, 1] = rain
        feats[s, :, 2] = weekend
        feats[s, :, 3] = holiday
        feats[s, :, 4] = np.sin(2 * np.pi * weekday / 7)
        feats[s, :, 5] = missing
        feats[s, missing, :4] = 0.0            # nothing recorded on gap days
        lab[missing] = SLOW                    # placeholder, never used
        labels[s] = lab
        gap[s] = missing
    return feats, labels, gap
