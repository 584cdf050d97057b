import numpy as np

N_PIERS = 40


def pier_layout(seed=9):
    rng = np.random.default_rng(seed)
    return rng.uniform(0, 6, (N_PIERS, 2)), rng.uniform(0.5, 4.0, N_PIERS)  # km positions, docking minutes


def simulate_trips(n, seed):
    rng = np.random.default_rng(seed)
    pos, dock = pier_layout()
    a = rng.integers(0, N_PIERS, n)
    b = (a + rng.integers(1, N_PIERS, n)) % N_PIERS
    dist = np.linalg.norm(pos[a] - pos[b], axis=1)
    wind = rng.uniform(0, 25, n)
    heading = np.arctan2(*(pos[b] - pos[a]).T[::-1])
    wind_dir = rng.uniform(-np.pi, np.pi, n)
    hour = rng.uniform(6, 23, n)
    load = rng.integers(1, 13, n)
    speed = 28 - 0.25 * wind * np.cos(heading - wind_dir) - 0.3 * load   # km/h
    minutes = 60 * dist / speed + dock[a] + dock[b] + 2.0 * np.exp(-((hour - 17.5) ** 2) / 2)
    minutes += rng.normal(0, 0.4, n)
    cont = np.stack([wind / 25, np.cos(wind_dir), np.sin(wind_dir), np.sin(2 * np.pi * hour / 24),
                     np.cos(2 * np.pi * hour / 24), load / 12], 1).astype(np.float32)
    return a.astype(np.int64), b.astype(np.int64), cont, minutes.astype(np.float32)
