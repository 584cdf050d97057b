import numpy as np


def dance(rng, frames, angle):
    """One waggle run + part of a return loop, in comb coordinates (mm)."""
    t = np.arange(frames)
    run_len = int(rng.integers(frames // 2, frames - 10))
    speed = rng.uniform(0.6, 1.0)
    d = np.array([np.sin(angle), np.cos(angle)])          # angle from vertical, clockwise
    n = np.array([d[1], -d[0]])
    along = np.minimum(t, run_len) * speed
    wag = np.where(t < run_len, 1.5 * np.sin(2 * np.pi * 13 / 25 * t), 0.0)
    side = rng.choice([-1, 1])
    loop = np.where(t >= run_len, side * 3.0 * np.sin(np.pi * (t - run_len) / 20.0), 0.0)
    back = np.where(t >= run_len, -(t - run_len) * speed * 0.8, 0.0)
    xy = (along + back)[:, None] * d + (wag + loop)[:, None] * n
    xy += rng.normal(0, 0.4, xy.shape)
    drop = rng.random(frames) < 0.05
    xy[drop] = xy[np.maximum(np.flatnonzero(drop) - 1, 0)]
    return (xy - xy[0]).astype(np.float32)


def make(n, frames, rng):
    ang = rng.uniform(-np.pi, np.pi, n)
    X = np.stack([dance(rng, frames, a) for a in ang])
    return X, ang.astype(np.float32)
