import numpy as np

# access point positions (metres) and room centres on a 20 x 12 floor
ACCESS_POINTS = np.array([[0, 0], [10, 0], [20, 0], [0, 12], [10, 12], [20, 12]], float)
ROOMS = np.array([[3, 3], [9, 8], [15, 3], [17, 9], [5, 9]], float)


def simulate(n, rng, tx_power=-30.0, exponent=2.7, shadowing=3.0):
    room = rng.integers(0, len(ROOMS), size=n)
    pos = ROOMS[room] + rng.normal(0, 1.6, size=(n, 2))
    d = np.linalg.norm(pos[:, None, :] - ACCESS_POINTS[None], axis=-1).clip(0.5)
    rssi = tx_power - 10 * exponent * np.log10(d) + rng.normal(0, shadowing, size=d.shape)
    return rssi.astype(np.float32), room.astype(np.int64)


def fit_stats(x):
    return {"mean": x.mean(0), "std": x.std(0) + 1e-6}
