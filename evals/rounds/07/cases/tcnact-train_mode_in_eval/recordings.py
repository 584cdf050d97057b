"""Simulated wrist IMU recordings, one long session per subject."""
import numpy as np

FS = 50
ACTIVITIES = ["rest", "walk", "run", "stairs", "cycling"]
# (step frequency Hz, accel amplitude, gyro amplitude, harmonic weight)
PROFILE = {0: (0.2, 0.05, 0.05, 0.0), 1: (1.8, 0.6, 0.5, 0.3), 2: (2.8, 1.6, 1.2, 0.5),
           3: (1.5, 0.8, 0.9, 0.8), 4: (1.2, 0.4, 1.4, 0.1)}


def session(subject, bout_seconds=60, rng=None):
    rng = rng or np.random.default_rng(subject)
    gain = rng.uniform(0.8, 1.25)
    tempo = rng.uniform(0.85, 1.15)
    orient = rng.normal(0, 0.12, size=(6, 6)) + np.eye(6)
    signals, labels = [], []
    order = np.concatenate([rng.permutation(5), rng.permutation(5)])
    for act in order:
        f, a_acc, a_gyr, harm = PROFILE[int(act)]
        n = bout_seconds * FS
        t = np.arange(n) / FS
        ph = rng.uniform(0, 2 * np.pi, 6)
        f = f * tempo
        base = np.stack([
            a_acc * (np.sin(2 * np.pi * f * t + ph[k]) + harm * np.sin(4 * np.pi * f * t + ph[k]))
            if k < 3 else
            a_gyr * (np.sin(2 * np.pi * f * t + ph[k]) + harm * np.cos(2 * np.pi * f * t))
            for k in range(6)
        ], 0)
        x = gain * (orient @ base) + rng.normal(0, 0.15, size=(6, n))
        x[2] += 1.0  # gravity on z
        signals.append(x)
        labels.append(np.full(n, act))
    return np.concatenate(signals, 1).astype(np.float32), np.concatenate(labels)


def sliding_windows(x, y, width=128, step=64):
    xs, ys = [], []
    for s in range(0, x.shape[1] - width + 1, step):
        lab = y[s:s + width]
        if (lab == lab[0]).all():  # drop windows straddling two bouts
            xs.append(x[:, s:s + width])
            ys.append(lab[0])
    return np.stack(xs), np.array(ys)


def build(subjects):
    X, Y = [], []
    for s in subjects:
        x, y = session(s)
        wx, wy = sliding_windows(x, y)
        X.append(wx)
        Y.append(wy)
    return np.concatenate(X), np.concatenate(Y)
