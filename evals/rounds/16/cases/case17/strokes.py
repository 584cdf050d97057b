import numpy as np

T = 48


def write_word(rng, slant_deg):
    t = np.linspace(0, 1, T)
    n_letters = rng.integers(3, 7)
    phase = 2 * np.pi * n_letters * t
    x = t * n_letters * 1.2 + 0.35 * np.sin(phase + rng.uniform(0, 1))
    y = 0.9 * (1 - np.cos(phase)) / 2 * rng.uniform(0.8, 1.3)
    # ascenders on some letters
    for _ in range(rng.integers(0, 3)):
        c = rng.uniform(0.1, 0.9)
        y += 1.2 * np.exp(-0.5 * ((t - c) / 0.03) ** 2)
    x = x + np.tan(np.deg2rad(slant_deg)) * y          # shear by the writer's slant
    x += rng.normal(0, 0.03, T)
    y += rng.normal(0, 0.03, T) + rng.normal(0, 0.05) * t
    pen = (rng.random(T) > 0.04).astype(float)
    return np.column_stack([np.diff(x, prepend=x[0]), np.diff(y, prepend=y[0]), pen]).T


def make_writers(n_writers, words_per_writer, seed):
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for _ in range(n_writers):
        slant = rng.uniform(-15, 35)
        for _ in range(words_per_writer):
            s = slant + rng.normal(0, 2.0)
            xs.append(write_word(rng, s))
            ys.append(s)
    return np.stack(xs).astype(np.float32), np.array(ys, dtype=np.float32)
