import numpy as np

FEATURES = ["slope_deg", "soil_depth_m", "rain_30d_mm", "rain_90d_mm",
            "pore_pressure_kpa", "clay_frac", "veg_cover", "toe_erosion", "campaign_year"]


def monitoring_table(n=3000, seed=11):
    rng = np.random.default_rng(seed)
    slope = rng.uniform(10, 45, n)
    depth = rng.gamma(2.0, 2.0, n)
    rain30 = rng.gamma(2.0, 60, n)
    rain90 = rain30 * rng.uniform(2.0, 3.5, n)
    pore = 5 + 0.08 * rain90 * rng.uniform(0.5, 1.5, n) + rng.normal(0, 5, n)
    clay = rng.beta(2, 3, n)
    veg = rng.beta(3, 2, n)
    toe = rng.binomial(1, 0.25, n).astype(float)
    year = rng.integers(2005, 2024, n).astype(float)

    # factor of safety style driver: steeper, wetter, deeper and clay-rich slopes creep more
    drive = (0.09 * (slope - 25) + 0.025 * pore + 0.35 * np.log1p(depth)
             + 1.4 * clay - 1.1 * veg + 0.9 * toe + 0.004 * rain30)
    disp_mm = np.expm1(np.clip(1.2 + 1.3 * drive + rng.normal(0, 0.35, n), 0, None))
    X = np.stack([slope, depth, rain30, rain90, pore, clay, veg, toe, year], 1)
    return X.astype(np.float32), disp_mm.astype(np.float32)
