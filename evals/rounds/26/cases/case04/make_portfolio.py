"""Write portfolio.npz: a synthetic book of oyster leases and their storm claims."""
import argparse

import numpy as np

GEAR = ["bottom", "trestle_bag", "longline", "basket"]


def build(n, seed):
    rng = np.random.default_rng(seed)
    wind = rng.gamma(6.0, 9.0, n)              # peak gust, km/h
    wave = rng.gamma(3.0, 0.4, n)              # significant wave height, m
    depth = rng.uniform(0.5, 6.0, n)           # m at low tide
    shelter = rng.beta(2, 2, n)                # 0 = open coast, 1 = deep inlet
    gear = rng.integers(0, len(GEAR), n)
    trestles = rng.integers(5, 400, n)
    months = rng.integers(1, 7, n)
    exposure = trestles * months

    gear_eff = np.array([-0.6, 0.2, 0.5, 0.0])[gear]
    log_rate = (-6.0 + 0.025 * (wind - 50) + 0.6 * wave - 0.15 * depth
                - 1.4 * shelter + gear_eff + 0.3 * wave * (1 - shelter))
    claims = rng.poisson(exposure * np.exp(log_rate))
    x = np.column_stack([wind, wave, depth, shelter, np.eye(len(GEAR))[gear]]).astype(np.float32)
    return x, exposure.astype(np.float32), claims.astype(np.float32)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="portfolio.npz")
    a = ap.parse_args()
    x, expo, y = build(a.n, a.seed)
    np.savez(a.out, x=x, exposure=expo, claims=y)
    print(f"wrote {a.out}: {len(y)} leases, {int(y.sum())} claims")
