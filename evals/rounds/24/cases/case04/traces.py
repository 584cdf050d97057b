import numpy as np

T = 40


def user_profiles(n_users, seed=99):
    rng = np.random.default_rng(seed)
    return {
        "speed": rng.uniform(0.5, 2.5, n_users),
        "curl": rng.uniform(-0.3, 0.3, n_users),
        "jitter": rng.uniform(0.05, 0.4, n_users),
        "burst": rng.uniform(2, 8, n_users),
    }


def sample(n, n_users, seed):
    rng = np.random.default_rng(seed)
    prof = user_profiles(n_users)
    X = np.zeros((n, T, 2), np.float32)
    users = rng.integers(0, n_users, n)
    speed = np.zeros(n, np.float32)
    for i, u in enumerate(users):
        heading = rng.uniform(0, 2 * np.pi)
        s = prof["speed"][u] * rng.uniform(0.8, 1.2)
        t = np.arange(T)
        mag = s * (0.5 + 0.5 * np.abs(np.sin(np.pi * t / prof["burst"][u])))
        ang = heading + prof["curl"][u] * t
        v = np.stack([mag * np.cos(ang), mag * np.sin(ang)], -1)
        v += rng.normal(0, prof["jitter"][u], v.shape)
        X[i] = v
        speed[i] = np.linalg.norm(v, axis=-1).mean()
    return X, users, speed
