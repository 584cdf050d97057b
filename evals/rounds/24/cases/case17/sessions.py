import numpy as np


def simulate(n, seed):
    rng = np.random.default_rng(seed)
    roll = rng.uniform(-np.pi, np.pi, n)
    wind = rng.uniform(4, 14, n)
    load_l = wind * np.cos(roll) + 3 * np.sin(roll) + rng.normal(0, 0.4, n)
    load_r = wind * np.cos(roll) - 3 * np.sin(roll) + rng.normal(0, 0.4, n)
    imu_x = np.sin(roll) * 9.81 + rng.normal(0, 0.5, n)
    imu_z = np.cos(roll) * 9.81 + rng.normal(0, 0.5, n)
    gyro = rng.normal(0, 1, n)
    X = np.column_stack([load_l, load_r, imu_x, imu_z, wind, gyro]).astype(np.float32)
    return X, roll.astype(np.float32)
