import numpy as np

N_WINES, N_GUESTS, MAX_FLIGHT = 200, 50, 5


def simulate(n, seed=0):
    rng = np.random.default_rng(seed)
    world = np.random.default_rng(7)
    quality = world.normal(0, 1, N_WINES)
    style = world.normal(0, 1, (N_WINES, 4))
    taste = world.normal(0, 1, (N_GUESTS, 4))
    wines = np.zeros((n, MAX_FLIGHT), dtype=np.int64)
    mask = np.zeros((n, MAX_FLIGHT), dtype=bool)
    guests = rng.integers(0, N_GUESTS, n)
    ratings = np.zeros(n, dtype=np.float32)
    for i in range(n):
        k = rng.integers(3, MAX_FLIGHT + 1)
        ws = rng.choice(N_WINES, k, replace=False)
        wines[i, :k], mask[i, :k] = ws, True
        fit = (style[ws] @ taste[guests[i]]).mean()
        ratings[i] = 3.0 + 0.8 * quality[ws].mean() + 0.5 * fit + rng.normal(0, 0.15)
    return wines, mask, guests, ratings
