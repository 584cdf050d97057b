import numpy as np

N_DISTRICTS = 60


def simulate_requests(n, seed, district_seed=17):
    drng = np.random.default_rng(district_seed)
    base = drng.gamma(2.0, 0.15, N_DISTRICTS)              # district-specific surge propensity
    nightlife = drng.random(N_DISTRICTS) < 0.25
    commute = drng.random(N_DISTRICTS) < 0.35
    rng = np.random.default_rng(seed)
    district = rng.integers(0, N_DISTRICTS, n)
    how = rng.integers(0, 168, n)                           # hour of week
    hour, dow = how % 24, how // 24
    rain = (rng.random(n) < 0.2).astype(np.float32)
    temp = rng.normal(15, 8, n)
    requests = rng.poisson(20, n).astype(np.float32)
    drivers = rng.poisson(18, n).astype(np.float32) + 1
    rush = ((hour >= 7) & (hour <= 9) | (hour >= 17) & (hour <= 19)) & (dow < 5)
    late = ((hour >= 22) | (hour <= 2)) & (dow >= 4)
    pressure = np.log((requests + 1) / drivers)
    surge = 1.0 + base[district] + 0.35 * rush * commute[district] + 0.5 * late * nightlife[district] \
        + 0.25 * rain + 0.4 * np.clip(pressure, 0, None) + rng.normal(0, 0.05, n)
    surge = np.clip(surge, 1.0, None)
    feats = np.stack([np.sin(2 * np.pi * hour / 24), np.cos(2 * np.pi * hour / 24),
                      (dow >= 5).astype(np.float32), (dow == 4).astype(np.float32), rush.astype(np.float32),
                      rain, (temp - 15) / 8, pressure], 1).astype(np.float32)
    return district, how, feats, surge.astype(np.float32)
