import numpy as np

DT = 0.05


def ride(rng, steps):
    """Lean follows a damped response to steering; the roll-rate gyro integrates
    to the lean angle, yaw rate ~ g*tan(lean)/v. Gyro has a slowly drifting bias."""
    lean = np.zeros(steps)
    v = np.clip(6 + np.cumsum(rng.normal(0, 0.05, steps)), 2, 12)
    steer = np.zeros(steps)
    for t in range(1, steps):
        steer[t] = 0.97 * steer[t - 1] + rng.normal(0, 0.06)
        lean[t] = lean[t - 1] + DT * (2.0 * steer[t] - 0.8 * lean[t - 1])
    lean = np.clip(lean, -0.8, 0.8)
    roll_rate = np.gradient(lean, DT)
    yaw_rate = 9.81 * np.tan(lean) / v
    pitch_rate = rng.normal(0, 0.05, steps)
    bias = np.cumsum(rng.normal(0, 0.002, steps))
    gyro = np.stack([roll_rate + bias, pitch_rate, yaw_rate], 1) + rng.normal(0, 0.03, (steps, 3))
    x = np.concatenate([gyro, (v[:, None] - 6) / 3], 1).astype(np.float32)
    return x, lean.astype(np.float32)


def make_rides(n, steps, seed):
    rng = np.random.default_rng(seed)
    xs, ys = zip(*(ride(rng, steps) for _ in range(n)))
    return np.stack(xs), np.stack(ys)       # (n, steps, 4), (n, steps)
