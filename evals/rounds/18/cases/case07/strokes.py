import numpy as np

POINTS = 64


def simulate_strokes(n, seed):
    """Returns features [n, 3, 64] (dx, dy, dt) and pressure [n, 64] in [0, 1]."""
    rng = np.random.default_rng(seed)
    feats = np.zeros((n, 3, POINTS), np.float32)
    press = np.zeros((n, POINTS), np.float32)
    s = np.linspace(0, 1, POINTS)
    for i in range(n):
        # speed profile: fast in the middle of a stroke, slow at entry / exit
        base_speed = rng.uniform(0.5, 2.0)
        speed = base_speed * (0.3 + np.sin(np.pi * s) ** rng.uniform(0.5, 2.0))
        speed *= 1 + 0.3 * np.sin(2 * np.pi * rng.uniform(0.5, 2.0) * s + rng.uniform(0, 6))
        heading = rng.uniform(0, 2 * np.pi) + np.cumsum(rng.normal(0, 0.08, POINTS))
        dt = rng.uniform(0.008, 0.012, POINTS)
        dx, dy = speed * np.cos(heading) * dt, speed * np.sin(heading) * dt
        curvature = np.abs(np.gradient(heading))
        p = 1.0 / (1.0 + np.exp(-(1.5 - 1.6 * speed + 8.0 * curvature)))
        press[i] = p
        feats[i] = np.stack([dx * 100, dy * 100, dt * 100])
    return feats, press
