"""Writes logs/sales.csv: one row per stand and day; sales is empty on closed days."""
import csv
import os

import numpy as np

N_STANDS = 6
N_DAYS = 700


def main(seed=0):
    rng = np.random.default_rng(seed)
    os.makedirs("logs", exist_ok=True)
    with open("logs/sales.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["stand", "day", "temp_c", "sun_h", "weekend", "sales"])
        for s in range(N_STANDS):
            popularity = rng.uniform(0.7, 1.3)
            prev = 60.0
            for d in range(N_DAYS):
                temp = 22 + 9 * np.sin(2 * np.pi * (d - 100) / 365) + rng.normal(0, 3)
                sun = float(np.clip(rng.normal(7, 3), 0, 13))
                weekend = int(d % 7 in (5, 6))
                demand = popularity * (4.0 * max(temp - 12, 0) + 3.0 * sun + 25 * weekend)
                sales = 0.45 * prev + 0.55 * demand + rng.normal(0, 5)
                prev = sales
                closed = rng.random() < 0.08
                w.writerow([s, d, f"{temp:.1f}", f"{sun:.1f}", weekend, "" if closed else f"{sales:.0f}"])


if __name__ == "__main__":
    main()
