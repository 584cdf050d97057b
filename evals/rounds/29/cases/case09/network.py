import numpy as np

# station graph: valley stations 0-2, mid stations 3-5, top stations 6-8
EDGES = [(0, 3), (1, 3), (1, 4), (2, 5), (3, 6), (4, 6), (4, 7), (5, 8), (3, 4), (4, 5)]
N_STATIONS = 9


def adjacency():
    a = np.zeros((N_STATIONS, N_STATIONS), np.float32)
    for i, j in EDGES:
        a[i, j] = a[j, i] = 1.0
    return a


def snapshots(n, seed):
    rng = np.random.default_rng(seed)
    a = adjacency()
    up = np.zeros((N_STATIONS, N_STATIONS))
    for i, j in EDGES:
        if i < j and (i < 3 or (i < 6 and j >= 6)):
            up[j, i] = 1.0            # j is fed by i
    hour = rng.uniform(8.5, 16.5, n)
    wind = rng.gamma(2.0, 4.0, n)
    parking = rng.poisson(200 * np.exp(-0.5 * ((hour - 10) / 1.3) ** 2) + 20, (3, n)).T
    speed = np.clip(1.0 - 0.02 * np.maximum(wind - 10, 0)[:, None] * np.linspace(0.5, 1.5, N_STATIONS), 0.3, 1.0)
    speed = speed * rng.uniform(0.9, 1.0, (n, N_STATIONS))
    queue = rng.gamma(2.0, 3.0, (n, N_STATIONS))
    inflow = np.zeros((n, N_STATIONS))
    inflow[:, :3] = parking / 20.0
    inflow += 0.6 * queue @ up.T
    future = np.maximum(0.5 * queue + 1.8 * inflow / speed - 2.0 * speed
                        + rng.normal(0, 1.0, (n, N_STATIONS)), 0)
    arrivals = np.repeat(parking.sum(1, keepdims=True) / 300.0, N_STATIONS, 1)
    arrivals[:, :3] = parking / 100.0            # valley stations see their own car park
    x = np.concatenate([queue[..., None], speed[..., None], arrivals[..., None],
                        np.repeat(wind[:, None, None] / 10, N_STATIONS, 1),
                        np.repeat(((hour - 12) / 4)[:, None, None], N_STATIONS, 1),
                        np.repeat(np.eye(N_STATIONS)[None], n, 0)], -1)
    return x.astype(np.float32), future.astype(np.float32), a
