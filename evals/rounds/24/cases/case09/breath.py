import numpy as np

HOLES = 10
FS = 2000
N = 128
# richter-tuned C harmonica, approximate reed frequencies (Hz) scaled down for the sensor band
BLOW = np.array([262, 330, 392, 523, 659, 784, 1047, 1319, 1568, 2093]) / 8.0
DRAW = np.array([294, 392, 494, 587, 698, 880, 988, 1175, 1397, 1760]) / 8.0


def traces(n, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(N) / FS
    cls = rng.integers(0, 2 * HOLES, n)
    X = np.empty((n, N), np.float32)
    for i, c in enumerate(cls):
        hole, draw = c % HOLES, c >= HOLES
        f = (DRAW if draw else BLOW)[hole] * rng.uniform(0.97, 1.03)
        env = np.clip(np.sin(np.pi * t / t[-1]) * rng.uniform(0.6, 1.4), 0, None)
        sign = -1.0 if draw else 1.0
        x = sign * env * (1.0 + 0.3 * np.sin(2 * np.pi * f * t + rng.uniform(0, 6.3)))
        x += 0.05 * np.sin(2 * np.pi * rng.uniform(3, 7) * t) + rng.normal(0, 0.15, N)
        X[i] = x
    return X, cls
