"""Writes survey.csv: one synthetic tide-pool survey per row."""
import csv
import numpy as np

rng = np.random.default_rng(7)
rows = []
for i in range(2400):
    area = rng.uniform(0.2, 6.0)
    depth = rng.uniform(5, 80)
    rock = rng.uniform(0, 1)
    algae = rng.uniform(0, 1)
    temp = rng.uniform(8, 24)
    lam = np.exp(0.4 + 0.45 * np.log(area) + 1.6 * algae + 0.9 * rock - 0.04 * abs(temp - 15))
    rows.append([f"P{i:05d}", round(area, 3), round(depth, 1), round(rock, 3), round(algae, 3),
                 round(temp, 2), int(rng.poisson(lam * 3))])
rng.shuffle(rows)
with open("survey.csv", "w", newline="") as fh:
    w = csv.writer(fh)
    w.writerow(["pool_id", "area_m2", "depth_cm", "rock_cover", "algae_cover", "water_temp", "snails"])
    w.writerows(rows)
