import numpy as np

SHOT_MASSES = np.array([4.0, 5.0, 6.0, 7.26])


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    body = rng.normal(95, 15, n).clip(55, 150)
    arm = rng.normal(0.75, 0.05, n)
    shot = rng.choice(SHOT_MASSES, n)
    rotational = (rng.random(n) < 0.5).astype(float)
    speed = rng.normal(12.0, 1.5, n).clip(7, 15)
    angle = np.deg2rad(rng.normal(37, 4, n))
    height = rng.normal(2.1, 0.12, n)
    # push time: shorter for rotational technique and for longer arms
    t_push = (0.20 - 0.03 * rotational) * (0.75 / arm) * rng.normal(1.0, 0.04, n)
    force = shot * speed / t_push + shot * 9.81 * np.sin(angle) + 0.4 * body
    force += rng.normal(0, 15, n)
    X = np.stack([speed, np.rad2deg(angle), height, body, arm, shot, rotational], 1)
    return X.astype(np.float32), force.astype(np.float32)
