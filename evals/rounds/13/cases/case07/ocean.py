import numpy as np

N = 24


def simulate_year(days, rng):
    yy, xx = np.mgrid[0:N, 0:N].astype(np.float32)
    n_eddies = rng.integers(4, 8)
    pos = rng.uniform(0, N, (n_eddies, 2))
    amp = rng.normal(0, 1.5, n_eddies)
    rad = rng.uniform(2.0, 4.0, n_eddies)
    vel = np.array([rng.uniform(0.4, 0.9), rng.uniform(-0.3, 0.3)])
    frames = []
    for _ in range(days):
        f = np.zeros((N, N), np.float32)
        for (px, py), a, r in zip(pos, amp, rad):
            dx = (xx - px + N / 2) % N - N / 2          # periodic basin
            dy = (yy - py + N / 2) % N - N / 2
            f += a * np.exp(-(dx ** 2 + dy ** 2) / (2 * r ** 2))
        frames.append(f + rng.normal(0, 0.02, f.shape))
        pos = (pos + vel + rng.normal(0, 0.05, pos.shape)) % N
        rad = rad * 1.01
        amp = amp * 0.99
    return np.stack(frames).astype(np.float32)


def simulate(n_years, days, seed):
    rng = np.random.default_rng(seed)
    return np.stack([simulate_year(days, rng) for _ in range(n_years)])   # [Y, T, N, N]
