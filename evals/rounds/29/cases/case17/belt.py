"""Synthetic chest-belt sessions.

A session is a long trace with its own gain (belt tension) and offset.
Windows are cut from it; about half contain a sigh.
"""
import numpy as np

FS = 10
WIN = 120


def _window(rng, sigh):
    t = np.arange(WIN) / FS
    rate = rng.uniform(0.2, 0.35)
    amp = rng.uniform(0.8, 1.2)
    x = amp * np.sin(2 * np.pi * rate * t + rng.uniform(0, 2 * np.pi))
    if sigh:
        c = rng.uniform(3, 9)
        x += rng.uniform(0.7, 1.1) * np.exp(-0.5 * ((t - c) / 0.9) ** 2)
    return x + rng.normal(0, 0.12, WIN)


def make_sessions(n_sessions, per_session, seed):
    rng = np.random.default_rng(seed)
    windows, labels, sessions = [], [], []
    for s in range(n_sessions):
        gain = np.exp(rng.normal(0, 0.5))
        offset = rng.normal(0, 3.0)
        for _ in range(per_session):
            y = int(rng.random() < 0.5)
            windows.append(gain * _window(rng, y) + offset)
            labels.append(y)
            sessions.append(s)
    return (np.array(windows, dtype=np.float32), np.array(labels, dtype=np.int64),
            np.array(sessions))
