import numpy as np

T = 40


def user_profiles(n_users, rng):
    return [dict(speed=rng.uniform(0.6, 1.6), overshoot=rng.uniform(0, 0.3), tremor=rng.uniform(0.005, 0.03),
                 curve=rng.uniform(-0.4, 0.4), tilt=rng.uniform(-0.3, 0.3)) for _ in range(n_users)]


def draw(p, rng):
    t = np.linspace(0, 1, T)
    # minimum-jerk speed profile, warped by the user's speed
    s = 10 * t ** 3 - 15 * t ** 4 + 6 * t ** 5
    s = s ** (1 / (p["speed"] * rng.uniform(0.9, 1.1)))
    s = s + p["overshoot"] * np.sin(np.pi * s) * (t > 0.7)
    # check-mark: down-right then up-right
    x = s
    y = np.where(s < 0.35, -s, -0.7 + 1.4 * (s - 0.35)) + p["curve"] * np.sin(np.pi * s) * 0.3
    ang = p["tilt"] + rng.normal(0, 0.05)
    x, y = x * np.cos(ang) - y * np.sin(ang), x * np.sin(ang) + y * np.cos(ang)
    x += rng.normal(0, p["tremor"], T)
    y += rng.normal(0, p["tremor"], T)
    dt = np.full(T, 1.0 / T) * rng.uniform(0.8, 1.2)
    return np.stack([np.diff(x, prepend=0), np.diff(y, prepend=0), dt]).astype(np.float32)


def make(n_per_user, n_users, seed, profile_seed=0):
    profiles = user_profiles(n_users, np.random.default_rng(profile_seed))
    rng = np.random.default_rng(seed)
    X, y = [], []
    for u, p in enumerate(profiles):
        for _ in range(n_per_user):
            X.append(draw(p, rng))
            y.append(u)
    return np.stack(X) * 20.0, np.array(y)
