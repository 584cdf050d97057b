import numpy as np

N_BANDS = 20


def utterance(rng, frames):
    # two-state Markov chain for speech activity
    labels = np.zeros(frames, dtype=np.int64)
    state = rng.random() < 0.5
    for t in range(frames):
        p_switch = 0.04 if state else 0.03
        if rng.random() < p_switch:
            state = not state
        labels[t] = state
    floor = rng.uniform(-1.0, 1.0)
    tilt = rng.normal(0, 0.05) * np.arange(N_BANDS)
    feats = floor + tilt + rng.normal(0, 0.6, size=(frames, N_BANDS))
    # speech: two or three drifting band peaks with a syllable-rate envelope
    centers = rng.uniform(2, N_BANDS - 3, size=3)
    env = 0.5 + 0.5 * np.sin(np.arange(frames) * rng.uniform(0.3, 0.6))
    bands = np.arange(N_BANDS)
    for t in np.flatnonzero(labels):
        c = centers + rng.normal(0, 0.8, 3)
        bump = np.exp(-0.5 * ((bands[None] - c[:, None]) / 1.5) ** 2).sum(0)
        feats[t] += 1.0 * env[t] * bump
    return feats.astype(np.float32), labels


def corpus(n_utts, frames, seed):
    rng = np.random.default_rng(seed)
    xs, ys = zip(*(utterance(rng, frames) for _ in range(n_utts)))
    return np.stack(xs), np.stack(ys)
