"""Write a synthetic daily log for the cart: data/cart_log.csv

Columns: day, weekday, temp_c, rain_mm, footfall, market, sales
Missing values are written as empty fields, like the real export.
"""
import csv
import os
import random
import math


def simulate(n_days=1600, seed=7):
    rng = random.Random(seed)
    rows = []
    for d in range(n_days):
        wd = d % 7
        season = math.sin(2 * math.pi * d / 365.0)
        temp = 14 + 9 * season + rng.gauss(0, 3)
        rain = max(0.0, rng.gauss(-1.0, 4.0))
        market = 1 if (wd == 5 or rng.random() < 0.06) else 0
        footfall = max(0, int(900 + 250 * market + 35 * temp - 60 * rain + rng.gauss(0, 80)))
        # cold days sell more churros, rain kills the queue
        sales = (0.11 * footfall - 2.2 * (temp - 14) - 4.0 * min(rain, 10)
                 + 25 * market + (12 if wd == 6 else 0) + rng.gauss(0, 6))
        row = {"day": d, "weekday": wd, "temp_c": round(temp, 2), "rain_mm": round(rain, 2),
               "footfall": footfall, "market": market, "sales": round(max(sales, 0), 1)}
        if rng.random() < 0.05:           # awning sensor offline
            row["temp_c"] = ""
            row["rain_mm"] = ""
        if rng.random() < 0.04:           # till export missing
            row["sales"] = ""
        rows.append(row)
    return rows


if __name__ == "__main__":
    os.makedirs("data", exist_ok=True)
    rows = simulate()
    with open("data/cart_log.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {len(rows)} days to data/cart_log.csv")
