import numpy as np

FIELDS = ["area_m2", "depth_cm", "dist_lw_m", "weed_cover", "rocks",
          "temp_c", "salinity", "shelter"]


def survey_sheets(n, seed):
    rng = np.random.default_rng(seed)
    area = rng.lognormal(0.5, 0.6, n)
    depth = rng.uniform(5, 80, n)
    dist = rng.uniform(0, 60, n)
    weed = rng.uniform(0, 1, n)
    rocks = rng.poisson(12, n).astype(float)
    temp = rng.normal(14, 3, n)
    sal = rng.normal(34, 1.5, n)
    shelter = rng.uniform(0, 1, n)
    log_rate = (0.8 * np.log(area) + 1.2 * np.sin(depth / 15.0) * weed
                - 0.04 * dist + 0.9 * shelter * (rocks > 10)
                - 0.15 * (temp - 14) ** 2 / 4 + 1.0)
    count = rng.poisson(np.exp(log_rate))
    X = np.stack([area, depth, dist, weed, rocks, temp, sal, shelter], 1)
    return X.astype(np.float32), count.astype(np.float32)
