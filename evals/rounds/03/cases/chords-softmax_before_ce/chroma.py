"""Synthetic chroma + bass-chroma frames for 24 triads (12 major, 12 minor).

Each example: 12 treble pitch-class energies followed by 12 bass pitch-class
energies. Chord tones get random energy, some are dropped, non-chord tones leak
in (sevenths, passing notes), the bass is usually the root but may be an
inversion.
"""
import numpy as np

NOTE_NAMES = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
CHORDS = [n + ":maj" for n in NOTE_NAMES] + [n + ":min" for n in NOTE_NAMES]


def chord_tones(label):
    root, minor = label % 12, label >= 12
    return [root, (root + (3 if minor else 4)) % 12, (root + 7) % 12]


def make_frames(n, seed, noise=0.35):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(CHORDS), size=n)
    x = np.zeros((n, 24), dtype=np.float32)
    for i, lab in enumerate(y):
        tones = chord_tones(lab)
        for k, pc in enumerate(tones):
            if k > 0 and rng.random() < 0.2:      # third or fifth missing
                continue
            x[i, pc] += rng.uniform(0.5, 1.0)
        if rng.random() < 0.4:                    # seventh
            x[i, (tones[0] + rng.choice([10, 11])) % 12] += rng.uniform(0.2, 0.7)
        x[i, rng.integers(0, 12, size=2)] += rng.uniform(0, 0.5, size=2)   # passing notes
        bass = tones[0] if rng.random() < 0.7 else tones[rng.integers(1, 3)]
        x[i, 12 + bass] += rng.uniform(0.6, 1.0)
    x += np.abs(rng.normal(0, noise, size=x.shape)).astype(np.float32)
    x /= x.max(axis=1, keepdims=True)
    return x, y.astype(np.int64)
