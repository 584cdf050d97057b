import numpy as np

FS = 128
WIN = 64
CH_WEIGHT = np.array([1.0, 1.0, 0.45, 0.45])  # blink field falls off away from the eyes


def _background(rng, n):
    white = rng.normal(size=(4, n))
    pink = np.cumsum(white, axis=1)
    pink -= np.convolve(pink[0], np.ones(32) / 32, mode="same")[None, :]
    t = np.arange(n) / FS
    alpha = np.sin(2 * np.pi * 10 * t + rng.uniform(0, 6.28)) * (rng.random() < 0.5)
    return 0.2 * pink + 0.6 * white + 0.8 * alpha + 0.3 * np.sin(2 * np.pi * 50 * t)


def make_session(rng, n_windows):
    xs, ys = [], []
    gain = np.exp(rng.normal(0, 0.7, size=(4, 1)))
    offset = rng.normal(0, 6.0, size=(4, 1))
    for _ in range(n_windows):
        x = _background(rng, WIN)
        blink = rng.random() < 0.3
        if blink:
            c = rng.uniform(16, 48)
            width = rng.uniform(5, 9)
            pulse = np.exp(-0.5 * ((np.arange(WIN) - c) / width) ** 2)
            x = x + rng.uniform(1.8, 3.0) * CH_WEIGHT[:, None] * pulse[None, :]
        # slow drift looks a bit like a blink on single channels
        x = x + rng.normal(0, 0.5) * np.linspace(-1, 1, WIN)[None, :] * rng.random((4, 1))
        xs.append(x * gain + offset)
        ys.append(int(blink))
    return np.stack(xs).astype(np.float32), np.array(ys, dtype=np.int64)


def make_sessions(n_sessions, n_windows, seed):
    rng = np.random.default_rng(seed)
    return [make_session(rng, n_windows) for _ in range(n_sessions)]
