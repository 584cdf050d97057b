"""Write a synthetic motor-claims table to data/{train,valid}.csv."""
import argparse
import csv
import os

import numpy as np

REGIONS = [f"R{i:02d}" for i in range(1, 15)]
BODIES = ["hatchback", "sedan", "estate", "suv", "coupe", "van", "pickup", "cabrio"]
OCCUPATIONS = ["clerk", "nurse", "teacher", "driver", "engineer", "farmer", "student",
               "retired", "sales", "trades", "manager", "artist", "courier", "chef",
               "unemployed"]


def simulate(n, rng, effects):
    reg_eff, body_eff, occ_eff = effects
    region = rng.integers(0, len(REGIONS), n)
    body = rng.integers(0, len(BODIES), n)
    occ = rng.integers(0, len(OCCUPATIONS), n)
    age = np.clip(rng.normal(45, 14, n), 18, 90).round()
    km = np.clip(rng.lognormal(9.3, 0.5, n), 1000, 80000).round(-2)
    vage = rng.integers(0, 21, n)
    bm = np.clip(rng.normal(90, 25, n), 50, 200).round()
    logit = (reg_eff[region] + body_eff[body] + occ_eff[occ]
             + 0.9 * ((age - 45) / 14) ** 2 - 0.6
             + 0.5 * (np.log(km) - 9.3) / 0.5
             + 0.02 * (bm - 90) / 2.5 * 0.5)
    p = 1 / (1 + np.exp(-logit))
    y = (rng.random(n) < p).astype(int)
    rows = []
    for i in range(n):
        rows.append({
            "policy_id": f"P{rng.integers(10**7, 10**8)}",
            "region": REGIONS[region[i]],
            "body": BODIES[body[i]],
            "occupation": OCCUPATIONS[occ[i]],
            "driver_age": int(age[i]),
            "annual_km": int(km[i]),
            "vehicle_age": int(vage[i]),
            "bonus_malus": int(bm[i]),
            "claim": int(y[i]),
        })
    return rows


def write(path, rows):
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def main(out_dir="data", n_train=6000, n_valid=1500, seed=2024):
    rng = np.random.default_rng(seed)
    effects = (rng.normal(0, 1.4, len(REGIONS)),
               rng.normal(0, 1.0, len(BODIES)),
               rng.normal(0, 1.2, len(OCCUPATIONS)))
    os.makedirs(out_dir, exist_ok=True)
    write(os.path.join(out_dir, "train.csv"), simulate(n_train, rng, effects))
    write(os.path.join(out_dir, "valid.csv"), simulate(n_valid, rng, effects))
    print(f"wrote {n_train} train / {n_valid} valid rows to {out_dir}/")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out-dir", default="data")
    ap.add_argument("--seed", type=int, default=2024)
    a = ap.parse_args()
    main(a.out_dir, seed=a.seed)
