"""Simulated bench measurements for the MOX gas sensor."""
import os

import numpy as np


def simulate(n=1500, seed=3):
    rng = np.random.default_rng(seed)
    ppm = rng.uniform(5, 400, size=n)
    temp_c = rng.uniform(10, 40, size=n)
    rh = rng.uniform(20, 85, size=n)
    # power-law response, drifting with temperature and humidity
    ratio = 4.2 * (ppm / 100.0) ** -0.55
    ratio *= 1 + 0.012 * (temp_c - 25) - 0.004 * (rh - 50)
    ratio *= np.exp(rng.normal(scale=0.02, size=n))
    return np.column_stack([ratio, temp_c, rh, ppm])


def write_csv(path="data/bench.csv"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    np.savetxt(path, simulate(), delimiter=",", header="rs_r0,temp_c,rh_pct,ppm", comments="", fmt="%.6f")
    return path


if __name__ == "__main__":
    print("wrote", write_csv())
