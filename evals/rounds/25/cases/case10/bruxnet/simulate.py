import numpy as np


def simulate_sessions(n_sessions, per_session, win, episode_rate, rng):
    """Return windows [N, win], labels [N], session ids [N].

    Each session has its own electrode gain and mains hum; clenching episodes
    are bursts of broadband activity a few times the resting level of that
    session (not of the population).
    """
    xs, ys, sids = [], [], []
    t = np.arange(win) / 64.0
    for s in range(n_sessions):
        gain = np.exp(rng.uniform(np.log(0.25), np.log(4.0)))
        hum = rng.uniform(0.0, 0.3)
        for _ in range(per_session):
            lab = int(rng.random() < episode_rate)
            x = rng.normal(0, 1.0, win)
            if lab:
                start = rng.integers(0, win // 3)
                length = rng.integers(win // 3, win - start)
                env = np.zeros(win)
                env[start:start + length] = rng.uniform(1.2, 2.2)
                x = x + env * rng.normal(0, 1.0, win)
            x = x + hum * np.sin(2 * np.pi * 50 * t / 64.0 * 8)
            xs.append(gain * x)
            ys.append(lab)
            sids.append(s)
    return (np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.int64),
            np.asarray(sids, dtype=np.int64))
