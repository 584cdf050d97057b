"""Writes policies.npz and region_vectors.json (synthetic policy book)."""
import json

import numpy as np

N_REGIONS = 12


def main(seed=4, n=20000):
    rng = np.random.default_rng(seed)
    region_vec = rng.normal(0, 1, (N_REGIONS, 4))
    region = rng.integers(0, N_REGIONS, n)
    hives = rng.integers(2, 80, n)
    road_km = rng.exponential(2.0, n)
    fenced = rng.random(n) < 0.5
    camera = rng.random(n) < 0.3
    exposure = rng.uniform(0.1, 1.0, n)
    log_rate = (-2.3 + 0.45 * np.log(hives) - 0.35 * np.log1p(road_km) - 0.5 * fenced
                - 0.7 * camera + region_vec[region] @ np.array([0.4, -0.3, 0.2, 0.1])
                + 0.3 * fenced * np.log1p(road_km))
    claims = rng.poisson(exposure * np.exp(log_rate))
    X = np.column_stack([np.log(hives), np.log1p(road_km), fenced, camera]).astype(np.float32)
    np.savez("policies.npz", X=X, region=region, exposure=exposure.astype(np.float32),
             claims=claims.astype(np.float32))
    with open("region_vectors.json", "w") as f:
        json.dump({"dim": 4, "vectors": region_vec.round(4).tolist()}, f)
    print(f"{n} policies, {claims.sum():.0f} claims, {exposure.sum():.0f} policy-years")


if __name__ == "__main__":
    main()
