import numpy as np

RATE = 50
WINDOW = 100


def user_profiles(n_users, rng):
    return [dict(freq=rng.uniform(1.2, 3.8), harm=rng.uniform(0.1, 0.8),
                 axis=rng.dirichlet(np.ones(3)), wobble=rng.uniform(0.2, 1.0))
            for _ in range(n_users)]


def record(profile, rng):
    t = np.arange(WINDOW) / RATE
    f = profile["freq"] * rng.uniform(0.93, 1.07)
    phase = rng.uniform(0, 2 * np.pi)
    spin = np.sin(2 * np.pi * f * t + phase) + profile["harm"] * np.sin(4 * np.pi * f * t + 2 * phase)
    gyro = np.outer(profile["axis"], spin) * 4.0
    acc = np.stack([profile["wobble"] * np.cos(2 * np.pi * f * t + phase + k) for k in range(3)])
    x = np.concatenate([acc, gyro]) + rng.normal(0, 0.5, (6, WINDOW))
    return x.astype(np.float32)


def make_split(n_users=8, per_user=150, seed=0):
    rng = np.random.default_rng(1000)          # users are fixed across runs
    profiles = user_profiles(n_users, rng)
    rng = np.random.default_rng(seed)
    X, y = [], []
    for u, p in enumerate(profiles):
        for _ in range(per_user):
            X.append(record(p, rng))
            y.append(u)
    return np.stack(X), np.array(y)
