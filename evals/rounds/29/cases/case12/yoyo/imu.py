import numpy as np

T = 50
FS = 12.5


def player_profiles(n_players, rng):
    return [dict(rate=rng.uniform(0.6, 1.6), strength=rng.uniform(0.6, 1.6),
                 roll=rng.uniform(-1, 1), lag=rng.uniform(0, np.pi))
            for _ in range(n_players)]


def record(profile, rng):
    t = np.arange(T) / FS
    r = profile["rate"] * rng.normal(1, 0.05)
    s = profile["strength"] * rng.normal(1, 0.08)
    ph = rng.uniform(0, 2 * np.pi)
    throw = np.sin(2 * np.pi * r * t + ph)
    acc = np.stack([s * throw,
                    0.5 * s * np.sin(2 * np.pi * r * t + ph + profile["lag"]),
                    np.full(T, profile["roll"]) + 0.2 * throw ** 2], 1)
    gyro = np.stack([np.gradient(acc[:, 0]) * FS * 0.3,
                     profile["roll"] * np.cos(2 * np.pi * r * t + ph),
                     np.gradient(acc[:, 1]) * FS * 0.3], 1)
    x = np.concatenate([acc, gyro], 1)
    return (x + rng.normal(0, 0.25, x.shape)).astype(np.float32)


def make_split(n_per_player, n_players, seed, profile_seed=123):
    profiles = player_profiles(n_players, np.random.default_rng(profile_seed))
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for pid, prof in enumerate(profiles):
        for _ in range(n_per_player):
            xs.append(record(prof, rng))
            ys.append(pid)
    return np.stack(xs), np.array(ys, dtype=np.int64)
