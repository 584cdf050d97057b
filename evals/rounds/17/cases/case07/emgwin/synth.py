"""Simulated surface EMG: band-limited noise, amplitude set by gesture and electrode gain."""
import numpy as np


def gesture_patterns(rng, n_gestures, n_channels):
    # each gesture activates a different group of forearm muscles
    base = rng.uniform(0.2, 1.0, size=(n_gestures, n_channels))
    for g in range(n_gestures):
        hot = rng.choice(n_channels, size=3, replace=False)
        base[g, hot] += 1.5
    return base


def record_subject(rng, patterns, n_windows, window):
    n_gestures, n_channels = patterns.shape
    gain = np.exp(rng.normal(0.0, 0.8, size=n_channels))      # electrode contact
    offset = rng.normal(0.0, 0.5, size=n_channels)            # DC offset of the amplifier
    xs, ys = [], []
    for g in range(n_gestures):
        for _ in range(n_windows):
            effort = rng.uniform(0.7, 1.3)
            white = rng.normal(size=(n_channels, window + 4))
            burst = (white[:, 4:] + 0.6 * white[:, 3:-1] + 0.3 * white[:, 2:-2])
            sig = burst * (patterns[g] * effort * gain)[:, None] + offset[:, None]
            xs.append(sig.astype(np.float32))
            ys.append(g)
    return np.stack(xs), np.asarray(ys)


def make_cohort(seed, n_subjects, n_windows, window, n_channels, n_gestures):
    rng = np.random.default_rng(seed)
    patterns = gesture_patterns(rng, n_gestures, n_channels)
    X, y, subj = [], [], []
    for s in range(n_subjects):
        xs, ys = record_subject(rng, patterns, n_windows, window)
        X.append(xs)
        y.append(ys)
        subj.append(np.full(len(ys), s))
    return np.concatenate(X), np.concatenate(y), np.concatenate(subj)
