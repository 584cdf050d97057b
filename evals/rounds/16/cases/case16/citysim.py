import numpy as np

N_HOODS = 40


def simulate(n_weeks, seed):
    rng = np.random.default_rng(seed)
    city = np.random.default_rng(77)
    popularity = city.normal(0, 0.8, N_HOODS)
    nightlife = city.random(N_HOODS)         # share of demand in evening hours
    commuter = city.random(N_HOODS)          # share in rush hours on weekdays
    rows = []
    for w in range(n_weeks):
        for d in range(7):
            temp = 15 + 8 * np.sin(2 * np.pi * (w * 7 + d) / 365) + rng.normal(0, 3)
            rain = float(rng.random() < 0.25)
            for h in range(0, 24, 2):
                hood = rng.integers(0, N_HOODS, 6)
                rush = float(d < 5 and h in (8, 18))
                evening = float(h >= 18 or h <= 0)
                for k in hood:
                    lam = np.exp(1.2 + popularity[k] + 1.2 * commuter[k] * rush
                                 + 1.0 * nightlife[k] * evening + 0.03 * (temp - 15)
                                 - 0.6 * rain - 0.8 * float(2 <= h <= 6))
                    rows.append((k, h, d, temp, rain, w, rng.poisson(lam)))
    return np.array(rows, dtype=np.float64)
