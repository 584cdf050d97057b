import numpy as np

from ports import N_PORTS, timetable


def simulate(n, seed=0):
    rng = np.random.default_rng(seed)
    counts, coords = timetable()
    popularity = coords[:, 0] * 2 - coords[:, 1]          # touristy ports on the east coast
    src = rng.integers(0, N_PORTS, n)
    dst = (src + rng.integers(1, N_PORTS, n)) % N_PORTS
    weekday = rng.integers(0, 7, n)
    hour = rng.integers(6, 22, n)
    season = rng.integers(0, 4, n)
    cap = 1.0 / (1 + counts[src, dst])                    # fewer sailings -> each one fuller
    load = (popularity[src] + popularity[dst] + 1.2 * (weekday >= 5) + 0.8 * (season == 2)
            - 0.6 * np.abs(hour - 12) / 6 + 2.0 * cap + rng.normal(0, 0.35, n))
    band = np.digitize(load, np.quantile(load, [0.35, 0.7, 0.9]))
    day = rng.integers(0, 365, n)
    cats = np.column_stack([src, dst, weekday, hour - 6, season])
    return cats.astype(np.int64), band.astype(np.int64), day
