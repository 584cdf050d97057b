"""Synthetic jaw-EMG sessions.

Activity in a window is one of rest / talk / chew. Chewing and talking are both bursty;
chewing bursts are stronger and more regular. Each session has its own electrode gain
and DC baseline, which is why the model only ever sees session-normalised signals.
"""
import numpy as np

REST, TALK, CHEW = 0, 1, 2


def _window(kind, n, rng, fs=256.0):
    t = np.arange(n) / fs
    carrier = rng.normal(0, 1, n)
    if kind == REST:
        env = 0.08 * np.ones(n)
    elif kind == TALK:
        f = rng.uniform(2.0, 4.0)
        env = 0.12 + 0.30 * np.clip(np.sin(2 * np.pi * f * t + rng.uniform(0, 6.3)), 0, None) * rng.uniform(0.6, 1.0)
    else:
        f = rng.uniform(1.2, 2.0)
        env = 0.12 + 0.85 * np.clip(np.sin(2 * np.pi * f * t + rng.uniform(0, 6.3)), 0, None) ** 0.7
    return env * carrier


def make_sessions(n_sessions, per_session, window, seed):
    rng = np.random.default_rng(seed)
    xs, labels, sess = [], [], []
    for s in range(n_sessions):
        gain = np.exp(rng.uniform(np.log(0.25), np.log(4.0)))
        baseline = rng.normal(0, 0.5)
        kinds = rng.choice([REST, TALK, CHEW], size=per_session, p=[0.3, 0.35, 0.35])
        for k in kinds:
            xs.append(gain * _window(k, window, rng) + baseline)
            labels.append(int(k == CHEW))
            sess.append(s)
    return np.asarray(xs, np.float32), np.asarray(labels, np.int64), np.asarray(sess)
