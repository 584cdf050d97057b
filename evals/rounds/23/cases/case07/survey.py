import numpy as np

FEATURES = ["bedrock_depth_m", "limestone_frac", "rain_anom_mm", "watertable_drop_m",
            "clay_overburden", "distance_to_fault_km", "pumping_wells"]


def load_survey(n=3000, seed=5):
    rng = np.random.default_rng(seed)
    depth = rng.uniform(2, 60, n)
    lime = rng.uniform(0, 1, n)
    rain = rng.normal(0, 120, n)
    drop = rng.gamma(2.0, 2.0, n)
    clay = rng.integers(0, 2, n)
    fault = rng.exponential(3.0, n)
    wells = rng.poisson(2.0, n)
    log_v = (1.5 + 0.045 * depth + 2.2 * lime * (1 + 0.3 * drop / 4) + 0.004 * rain
             + 0.35 * drop - 0.8 * clay - 0.25 * np.log1p(fault) + 0.15 * wells
             + rng.normal(0, 0.3, n))
    volume = np.expm1(np.clip(log_v, 0, None))
    X = np.stack([depth, lime, rain, drop, clay, fault, wells], 1).astype(np.float32)
    return X, volume.astype(np.float32)
