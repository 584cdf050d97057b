import numpy as np


def simulate_sales(n_stops, n_days, seed):
    rng = np.random.default_rng(seed)
    popularity = rng.gamma(2.0, 30.0, n_stops)          # busy interchanges vs quiet suburbs
    office = rng.random(n_stops) < 0.4                   # stops near offices die at weekends
    rows, sales = [], []
    for day in range(n_days):
        weekday = day % 7
        temp = 12 + 8 * np.sin(2 * np.pi * day / 365) + rng.normal(0, 3)
        rain = float(rng.random() < 0.3)
        for s in range(n_stops):
            weekend = weekday >= 5
            base = popularity[s] * (0.3 if (office[s] and weekend) else 1.0)
            mu = base * (1 - 0.35 * rain) * (1 + 0.02 * (15 - temp))
            rows.append((s, weekday, temp, rain))
            sales.append(rng.poisson(max(mu, 0.5)))
    rows = np.array(rows, dtype=np.float32)
    return rows[:, 0].astype(np.int64), rows[:, 1:], np.array(sales, dtype=np.float32)
