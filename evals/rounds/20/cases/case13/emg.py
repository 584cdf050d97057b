import numpy as np

WIN = 50   # samples per window after envelope decimation


def session(rng, n_windows, sid):
    gain = np.exp(rng.uniform(np.log(0.2), np.log(5.0)))
    offset = rng.uniform(-0.5, 0.5)
    y = (rng.random(n_windows) < 0.35).astype(np.int64)
    t = np.linspace(0, 1, WIN)
    X = rng.normal(0, 0.3, (n_windows, WIN))
    for i in np.where(y == 1)[0]:
        c = rng.uniform(0.3, 0.7)
        X[i] += rng.uniform(1.0, 1.8) * np.exp(-0.5 * ((t - c) / 0.08) ** 2)
    # distractors: a cough/speech burst is short and sharp
    for i in np.where((y == 0) & (rng.random(n_windows) < 0.3))[0]:
        c = rng.uniform(0.2, 0.8)
        X[i] += rng.uniform(0.8, 1.5) * np.exp(-0.5 * ((t - c) / 0.02) ** 2)
    X = np.abs(X) * gain + offset * gain
    return X.astype(np.float32), y, np.full(n_windows, sid)


def make_sessions(n_sessions, per_session, seed):
    rng = np.random.default_rng(seed)
    parts = [session(rng, per_session, s) for s in range(n_sessions)]
    return tuple(np.concatenate(p) for p in zip(*parts))
