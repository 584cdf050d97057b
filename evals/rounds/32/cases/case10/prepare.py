"""Simulate a quadrat survey and write train/val arrays into data/."""
import argparse
import os

import numpy as np

COLUMNS = ["grain_um", "depth_cm", "salinity_psu", "chl_ug_l", "temp_c", "exposure_h"]


def simulate(n, rng):
    grain = rng.normal(220, 70, n).clip(60, 500)
    depth = rng.gamma(2.0, 8.0, n)
    sal = rng.normal(31, 2.5, n)
    chl = rng.lognormal(1.2, 0.5, n)
    temp = rng.normal(14, 3, n)
    expo = rng.uniform(1, 9, n)
    # cockles like medium sand, moderate emersion, food-rich water
    log_rate = (2.2 - ((grain - 230) / 90) ** 2 + 0.35 * np.log(chl)
                - 0.08 * (expo - 4) ** 2 + 0.05 * (sal - 31) - 0.01 * depth)
    counts = rng.poisson(np.exp(log_rate))
    x = np.stack([grain, depth, sal, chl, temp, expo], 1).astype(np.float32)
    return x, counts.astype(np.float32)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=3000)
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()
    rng = np.random.default_rng(args.seed)
    x, y = simulate(args.n, rng)
    n_val = args.n // 5
    os.makedirs("data", exist_ok=True)
    np.savez("data/train.npz", x=x[n_val:], y=y[n_val:], columns=COLUMNS)
    np.savez("data/val.npz", x=x[:n_val], y=y[:n_val], columns=COLUMNS)
    print(f"wrote {args.n - n_val} train / {n_val} val quadrats to data/")


if __name__ == "__main__":
    main()
