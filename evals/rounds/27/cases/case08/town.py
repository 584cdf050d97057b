import numpy as np

N_PLAZAS = 40


def simulate(seed, n_foot=20000, n_sales=3000):
    rng = np.random.default_rng(seed)
    plaza_lat = rng.normal(0, 1, (N_PLAZAS, 3))            # tourist / office / residential mix
    def weekday_effect(p, wd):
        weekend = (wd >= 5).astype(float)
        return plaza_lat[p, 0] * weekend - 0.6 * plaza_lat[p, 1] * weekend + 0.3 * plaza_lat[p, 2]
    # footfall: many days, all plazas
    p = rng.integers(0, N_PLAZAS, n_foot); wd = rng.integers(0, 7, n_foot)
    foot = 5 + plaza_lat[p] @ np.array([0.8, 0.5, 0.2]) + weekday_effect(p, wd) + rng.normal(0, 0.3, n_foot)
    # sales: few days, weather matters, scarce for many plazas
    sp = np.minimum(rng.geometric(0.08, n_sales) - 1, N_PLAZAS - 1)
    swd = rng.integers(0, 7, n_sales)
    temp = rng.normal(15, 7, n_sales)
    rain = rng.exponential(1.0, n_sales) * (rng.random(n_sales) < 0.3)
    event = (rng.random(n_sales) < 0.1).astype(float)
    sales = (60 + 8 * (plaza_lat[sp] @ np.array([0.8, 0.5, 0.2])) + 8 * weekday_effect(sp, swd)
             - 0.04 * (temp - 12) ** 2 - 6 * rain + 25 * event + rng.normal(0, 4, n_sales))
    feats = np.column_stack([np.eye(7)[swd], (temp - 15) / 7, rain, event]).astype(np.float32)
    return (p, wd, foot.astype(np.float32)), (sp, swd, feats, sales.astype(np.float32))
