import numpy as np

N_USERS, N_POINTS = 12, 32


def user_habits(rng):
    return dict(start=rng.uniform(0.2, 0.8, 2), length=rng.uniform(0.3, 0.6), arc=rng.normal(0, 0.15),
                angle=rng.uniform(-0.4, 0.4), speed_skew=rng.uniform(0.6, 1.8),
                pressure=rng.uniform(0.3, 0.8), area=rng.uniform(0.3, 0.9))


def swipe(h, rng):
    s = np.linspace(0, 1, N_POINTS) ** rng.normal(h["speed_skew"], 0.1)
    ang = h["angle"] + rng.normal(0, 0.08)
    L = h["length"] * rng.uniform(0.85, 1.15)
    x = h["start"][0] + rng.normal(0, 0.04) + L * s * np.cos(ang)
    y = h["start"][1] + rng.normal(0, 0.04) + L * s * np.sin(ang) + h["arc"] * np.sin(np.pi * s)
    p = h["pressure"] + 0.1 * np.sin(np.pi * s) + rng.normal(0, 0.05, N_POINTS)
    a = h["area"] + rng.normal(0, 0.05, N_POINTS)
    dt = np.gradient(s) + rng.normal(0, 0.003, N_POINTS)
    return np.stack([x, y, p, a, dt * 20]).astype(np.float32)


def make_split(per_user, seed):
    habits_rng = np.random.default_rng(2024)
    habits = [user_habits(habits_rng) for _ in range(N_USERS)]
    rng = np.random.default_rng(seed)
    X = np.stack([swipe(habits[u], rng) for u in range(N_USERS) for _ in range(per_user)])
    y = np.repeat(np.arange(N_USERS), per_user)
    return X, y
