"""Writes data/logs.csv: shop,day,weekday,temp,rain,stock,sold (sold empty when the till was off)."""
import csv
import os

import numpy as np


def main(seed=0):
    rng = np.random.default_rng(seed)
    os.makedirs("data", exist_ok=True)
    with open("data/logs.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["shop", "day", "weekday", "temp", "rain", "stock", "sold"])
        for shop in range(6):
            base = rng.uniform(40, 90)
            level = base
            for day in range(400):
                wd = day % 7
                temp = 12 + 8 * np.sin(2 * np.pi * day / 365) + rng.normal(0, 3)
                rain = float(rng.random() < 0.3)
                level = 0.9 * level + 0.1 * base + rng.normal(0, 4)
                demand = level * (1.35 if wd >= 5 else 1.0) * (0.8 if rain else 1.0) + 0.6 * temp + rng.normal(0, 8)
                stock = round(base * rng.uniform(0.85, 1.35))
                sold = min(max(round(demand), 0), stock)
                if rng.random() < 0.08:
                    w.writerow([shop, day, wd, f"{temp:.1f}", int(rain), stock, ""])
                else:
                    w.writerow([shop, day, wd, f"{temp:.1f}", int(rain), stock, sold])


if __name__ == "__main__":
    main()
