import numpy as np

SR = 8000
N = 512
STRINGS_HZ = [392.0, 261.6, 329.6, 440.0]     # G C E A


def pluck(rng, buzz):
    t = np.arange(N) / SR
    f0 = rng.choice(STRINGS_HZ) * 2 ** (rng.integers(0, 8) / 12)
    amp = rng.uniform(0.4, 1.0)
    decay = rng.uniform(4, 12)
    x = np.zeros(N)
    for k in range(1, 6):
        x += amp / k * np.sin(2 * np.pi * k * f0 * t + rng.uniform(0, 6.28)) * np.exp(-decay * k * t)
    if buzz:
        env = amp * np.exp(-decay * t)
        slaps = np.where((np.sin(2 * np.pi * f0 * t) > 0.9) & (env > 0.15))[0]
        for s in slaps[:: rng.integers(1, 3)]:
            L = min(6, N - s)
            x[s:s + L] += rng.normal(0, 0.5 * env[s], L)
    x += rng.normal(0, 0.03, N)
    return x.astype(np.float32)


def dataset(n, seed, buzz_rate=0.3):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < buzz_rate).astype(np.float32)
    X = np.stack([pluck(rng, b) for b in y])[:, None, :]
    return X, y
