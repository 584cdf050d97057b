"""Simulated airflow sessions and shared feature code."""
import numpy as np

WIN = 96


def simulate_sessions(n_sessions, windows_per_session, seed):
    rng = np.random.default_rng(seed)
    X, y, sess = [], [], []
    t = np.arange(WIN) / 32.0
    for s in range(n_sessions):
        gain = np.exp(rng.uniform(np.log(0.1), np.log(10.0)))
        offset = rng.normal(0, 3.0)
        breath_rate = rng.uniform(0.2, 0.45)
        for _ in range(windows_per_session):
            phase = rng.uniform(0, 2 * np.pi)
            w = np.sin(2 * np.pi * breath_rate * t + phase) + 0.3 * rng.normal(size=WIN)
            label = int(rng.random() < 0.4)
            if label:
                # sharp inhalation followed by an explosive exhale
                c = rng.integers(20, WIN - 30)
                k = np.arange(WIN) - c
                burst = -1.2 * np.exp(-((k + 6) / 4.0) ** 2) + 2.6 * np.exp(-(k / 2.0) ** 2) * (k >= -2)
                w = w + rng.uniform(0.9, 1.4) * burst
            else:
                # distractor: sniff / cough-like bumps that are broader
                if rng.random() < 0.5:
                    c = rng.integers(10, WIN - 10)
                    w = w + rng.uniform(0.8, 1.6) * np.exp(-((np.arange(WIN) - c) / 8.0) ** 2)
            X.append(gain * w + offset)
            y.append(label)
            sess.append(s)
    return np.array(X, np.float32), np.array(y, np.int64), np.array(sess)


def standardize(X, sessions=None):
    """z-score windows. With `sessions`, statistics are computed per session."""
    X = X.copy()
    if sessions is None:
        return (X - X.mean()) / (X.std() + 1e-6)
    for s in np.unique(sessions):
        m = sessions == s
        X[m] = (X[m] - X[m].mean()) / (X[m].std() + 1e-6)
    return X
