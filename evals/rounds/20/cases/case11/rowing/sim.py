import numpy as np

FS = 16.0


def simulate(n, window=64, seed=0):
    """Returns windows (n, window, 6) and stroke power in watts (n,).

    The handle force shows up mostly on accel-x, the seat/boat speed on gyro-z
    (hull pitch). Power ~ force * velocity, which depends on how well the catch
    timing lines up the two (phase), and on the stroke rate.
    """
    rng = np.random.default_rng(seed)
    t = np.arange(window) / FS
    rate = rng.uniform(18, 36, n) / 60.0           # strokes per second
    force = rng.uniform(0.5, 1.5, n)
    phase = rng.uniform(0.0, 1.2, n)                # catch timing mismatch
    ph0 = rng.uniform(0, 2 * np.pi, n)
    w = 2 * np.pi * rate[:, None] * t[None, :] + ph0[:, None]
    ax = force[:, None] * np.sin(w)
    gz = np.sin(w - phase[:, None])
    ay = 0.3 * np.sin(2 * w)
    az = 0.2 * np.cos(w) + 0.1
    gx = 0.15 * np.sin(w + 0.5)
    gy = 0.1 * rng.normal(size=(n, window))
    X = np.stack([ax, ay, az, gx, gy, gz], axis=-1)
    X += rng.normal(0, 0.15, X.shape)
    power = 300.0 * force * np.cos(phase) * (rate * 60 / 26.0)
    return X.astype(np.float32), power.astype(np.float32)
