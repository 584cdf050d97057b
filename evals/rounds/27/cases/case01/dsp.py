import numpy as np

SR = 4000
N = 512


def synth_forks(n, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(N) / SR
    f0 = 2 ** rng.uniform(np.log2(180), np.log2(900), size=n)
    X = np.empty((n, N), np.float32)
    for i in range(n):
        decay = rng.uniform(2, 8)
        x = np.exp(-decay * t) * np.sin(2 * np.pi * f0[i] * t + rng.uniform(0, 6.28))
        if 6.3 * f0[i] < SR / 2:
            x += 0.3 * np.exp(-6 * decay * t) * np.sin(2 * np.pi * 6.3 * f0[i] * t)
        x += 0.2 * np.sin(2 * np.pi * 50 * t + rng.uniform(0, 6.28))   # mains hum
        x += rng.normal(0, 0.25, N)
        X[i] = x
    return X, np.log2(f0).astype(np.float32)


def log_spectrum(X):
    win = np.hanning(X.shape[1])
    mag = np.abs(np.fft.rfft(X * win, axis=1))
    return np.log1p(mag).astype(np.float32)
