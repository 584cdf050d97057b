import numpy as np

# 8 arm directions (0 = down, then clockwise in 45 degree steps); letters are pairs
DIRS = np.deg2rad(np.arange(8) * 45.0)
LETTERS = [(0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (1, 2),
           (1, 3), (1, 4), (1, 5), (1, 6), (2, 3), (2, 4), (2, 5), (3, 4)]


def sample(n, rng):
    y = rng.integers(0, len(LETTERS), n)
    X = np.zeros((n, 7), np.float32)
    for i, lab in enumerate(y):
        left, right = LETTERS[lab]
        if rng.random() < 0.5:               # signaller may face away: arms mirrored
            left, right = right, left
            lean = -1
        else:
            lean = 1
        bend_l, bend_r = rng.uniform(0, 0.6, 2)
        # tracker reports shoulder angle (arm direction, degrees), elbow and wrist flex
        X[i, 0] = np.degrees(DIRS[left] + rng.normal(0, 0.12)) % 360
        X[i, 1] = np.degrees(bend_l)
        X[i, 2] = np.degrees(DIRS[right] + rng.normal(0, 0.12)) % 360
        X[i, 3] = np.degrees(bend_r)
        X[i, 4] = np.degrees(rng.uniform(-0.3, 0.3))
        X[i, 5] = np.degrees(rng.uniform(-0.3, 0.3))
        X[i, 6] = lean * 10 + rng.normal(0, 2)
    return X, y
