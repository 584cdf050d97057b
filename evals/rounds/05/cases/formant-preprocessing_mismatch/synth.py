"""Synthetic vowel spectrograms (power, linear scale)."""
import numpy as np

# (F1, F2) centre bins on a 32-bin axis, loosely inspired by real vowel charts
VOWELS = {
    "i": (4, 24), "e": (7, 21), "a": (12, 17), "o": (9, 11), "u": (5, 9), "y": (4, 18),
}


def make_utterance(rng, f1, f2, n_freq, n_frames):
    freqs = np.arange(n_freq)[:, None]
    f0 = rng.uniform(1.5, 3.0)
    harmonics = np.zeros((n_freq, 1))
    k = 1
    while k * f0 < n_freq:
        harmonics += np.exp(-0.5 * ((freqs - k * f0) / 0.6) ** 2)
        k += 1
    jitter = rng.normal(0, 0.8, size=2)
    env = (np.exp(-0.5 * ((freqs - f1 - jitter[0]) / 1.8) ** 2)
           + 0.7 * np.exp(-0.5 * ((freqs - f2 - jitter[1]) / 2.2) ** 2))
    loudness = rng.uniform(0.3, 3.0)
    onset = rng.integers(0, n_frames // 4)
    dur = rng.integers(n_frames // 2, n_frames - onset + 1)
    gate = np.zeros((1, n_frames))
    gate[0, onset:onset + dur] = 1.0
    spec = loudness * (0.2 + harmonics) * env * gate
    spec += rng.exponential(0.004, size=spec.shape)       # background noise floor
    return spec.astype(np.float32)


def make_corpus(n_per_class, n_freq, n_frames, seed):
    rng = np.random.default_rng(seed)
    specs, labels = [], []
    for label, (f1, f2) in enumerate(VOWELS.values()):
        for _ in range(n_per_class):
            specs.append(make_utterance(rng, f1, f2, n_freq, n_frames))
            labels.append(label)
    return np.stack(specs), np.array(labels, dtype=np.int64)
