"""Synthetic POS export: one row per kiosk-day, grouped by sales tier."""
import numpy as np

TIERS = ("low", "mid", "high")


def generate(n_days, n_squares, seed=0):
    rng = np.random.default_rng(seed)
    square = rng.integers(0, n_squares, n_days)
    weekday = rng.integers(0, 7, n_days)
    temp = rng.normal(18, 7, n_days)
    rain = (rng.random(n_days) < 0.25).astype(np.float32)
    event = (rng.random(n_days) < 0.15).astype(np.float32)

    square_pull = rng.normal(0, 1.0, n_squares)  # footfall of each square
    score = (square_pull[square] + 0.9 * (weekday >= 4) - 0.05 * np.abs(temp - 22)
             - 0.8 * rain + 1.4 * event + rng.normal(0, 0.35, n_days))
    cuts = np.quantile(score, [1 / 3, 2 / 3])
    tier = np.digitize(score, cuts)

    cont = np.stack([temp, rain, event, np.sin(2 * np.pi * weekday / 7),
                     np.cos(2 * np.pi * weekday / 7)], 1).astype(np.float32)
    # the export writes one block per tier
    order = np.argsort(tier, kind="stable")
    return square[order], cont[order], tier[order]
