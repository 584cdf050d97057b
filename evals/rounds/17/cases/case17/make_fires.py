"""Write a synthetic fire record table: weather on the ignition day, fuels, terrain, final area."""
import argparse
import csv

import numpy as np

COLUMNS = ["temp_c", "rh_pct", "wind_kmh", "days_since_rain", "fuel_load_t_ha",
           "slope_deg", "dist_road_km", "drought_code", "area_ha"]


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    temp = rng.normal(27, 6, n)
    rh = np.clip(rng.normal(35, 14, n), 5, 95)
    wind = rng.gamma(2.0, 8.0, n)
    dry_days = rng.poisson(9, n)
    fuel = rng.gamma(3.0, 6.0, n)
    slope = rng.uniform(0, 35, n)
    road = rng.exponential(4.0, n)
    drought = np.clip(rng.normal(350, 150, n), 0, 900)
    # spread potential: hot, dry, windy, steep, heavy fuel; suppression near roads
    s = (0.06 * (temp - 27) - 0.035 * (rh - 35) + 0.05 * wind + 0.07 * dry_days
         + 0.04 * fuel + 0.03 * slope + 0.25 * np.log1p(road) + 0.003 * drought
         + 0.02 * wind * (rh < 25))
    log_area = 0.6 + 0.9 * s + rng.normal(0, 0.45, n)
    area = np.expm1(np.clip(log_area, 0, None))
    return np.column_stack([temp, rh, wind, dry_days, fuel, slope, road, drought, area])


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", default="fires.csv")
    args = ap.parse_args()
    rows = simulate(args.n, args.seed)
    with open(args.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for r in rows:
            w.writerow([f"{v:.4f}" for v in r])
    print(f"wrote {len(rows)} fires to {args.out}")
