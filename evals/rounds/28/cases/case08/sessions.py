import numpy as np

HZ = 20
WIN = 60


def record_session(rng, n_windows):
    gain = rng.uniform(0.5, 2.5)
    offset = rng.uniform(-1, 1)
    windows, labels = [], []
    for _ in range(n_windows):
        t = np.arange(WIN) / HZ
        mouth = 0.2 + 0.05 * np.sin(2 * np.pi * rng.uniform(0.2, 2.0) * t) + rng.normal(0, 0.04, WIN)
        jaw = 0.1 + rng.normal(0, 0.03, WIN)
        yawn = rng.random() < 0.35
        if yawn:
            c, w = rng.uniform(0.8, 2.2), rng.uniform(0.5, 0.9)
            bump = np.exp(-0.5 * ((t - c) / (w / 2)) ** 2)
            mouth += 0.8 * bump
            jaw += 0.4 * bump
        elif rng.random() < 0.4:          # talking: fast small openings
            mouth += 0.25 * np.abs(np.sin(2 * np.pi * rng.uniform(3, 5) * t))
        windows.append(np.stack([mouth, jaw]) * gain + offset)
        labels.append(float(yawn))
    return np.stack(windows), np.array(labels)


def per_session_standardize(w):
    mu = w.mean(axis=(0, 2), keepdims=True)
    sd = w.std(axis=(0, 2), keepdims=True) + 1e-6
    return (w - mu) / sd


def make_sessions(n_sessions, per_session, seed):
    rng = np.random.default_rng(seed)
    X, y = [], []
    for _ in range(n_sessions):
        w, l = record_session(rng, per_session)
        X.append(per_session_standardize(w))
        y.append(l)
    return np.concatenate(X).astype(np.float32), np.concatenate(y).astype(np.float32)
