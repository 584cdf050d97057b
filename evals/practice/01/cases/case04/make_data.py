"""Simulate a season of snail races.

data/snails.csv   one row per entrant, in registration order
data/results.csv  the results board, fastest first
"""
import csv
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")


def simulate(n=1800, seed=11):
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        shell = rng.normal(28, 4)              # mm
        weight = max(2.0, 0.012 * shell ** 2 + rng.normal(0, 1.2))   # g
        age = rng.integers(60, 900)            # days
        humidity = rng.uniform(40, 98)         # % on the board
        lettuce = rng.uniform(0, 12)           # g fed the night before
        incline = rng.choice([0.0, 2.5, 5.0])  # degrees
        temp = rng.uniform(8, 26)              # C
        speed = (
            1.4
            + 0.9 * np.tanh((humidity - 65) / 12)
            - 0.05 * incline * weight / 8
            + 0.25 * np.exp(-((temp - 18) / 5) ** 2)
            - 0.5 * (age > 650)
            + 0.04 * lettuce * (lettuce < 8) - 0.06 * (lettuce >= 8) * (lettuce - 8)
            + 0.01 * (shell - 28)
        )
        speed = max(speed, 0.15) * np.exp(rng.normal(0, 0.05))   # mm/s
        time_s = 330.0 / speed
        rows.append(dict(snail_id=f"S{i:04d}", shell_mm=round(shell, 2), weight_g=round(weight, 2),
                         age_days=int(age), humidity_pct=round(humidity, 1), lettuce_g=round(lettuce, 2),
                         incline_deg=incline, temp_c=round(temp, 1), time_s=round(time_s, 1)))
    return rows


def main():
    os.makedirs(DATA, exist_ok=True)
    rows = simulate()
    feat_cols = ["snail_id", "shell_mm", "weight_g", "age_days", "humidity_pct", "lettuce_g",
                 "incline_deg", "temp_c"]
    with open(os.path.join(DATA, "snails.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=feat_cols)
        w.writeheader()
        for r in rows:
            w.writerow({k: r[k] for k in feat_cols})
    board = sorted(rows, key=lambda r: r["time_s"])
    with open(os.path.join(DATA, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["place", "snail_id", "time_s"])
        w.writeheader()
        for place, r in enumerate(board, 1):
            w.writerow(dict(place=place, snail_id=r["snail_id"], time_s=r["time_s"]))
    print(f"wrote {len(rows)} entrants to {DATA}")


if __name__ == "__main__":
    main()
