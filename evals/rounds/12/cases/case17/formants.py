"""Synthetic spoken commands as formant tracks.

Each utterance is 40 frames x [F1, F2, F3 (Hz), energy (dB)]. A command is a
short sequence of vowel targets; speakers differ by vocal-tract length (all
formants scaled), speaking rate and noise.
"""
import numpy as np

COMMANDS = ["go", "stop", "left", "right", "up", "down", "yes", "no"]
VOWELS = {  # F1, F2, F3 in Hz (adult male-ish)
    "i": (280, 2250, 2890), "e": (400, 2000, 2550), "a": (730, 1090, 2440),
    "o": (450, 850, 2400), "u": (310, 870, 2250), "ae": (660, 1720, 2410),
    "er": (490, 1350, 1690), "ai": (600, 1500, 2500),
}
SCRIPT = {"go": ["o", "u"], "stop": ["a", "o"], "left": ["e", "er"], "right": ["ai", "i"],
          "up": ["er", "a"], "down": ["a", "u"], "yes": ["i", "e"], "no": ["o", "ai"]}
N_FRAMES = 40


def synth_utterance(cmd, rng):
    targets = np.array([VOWELS[v] for v in SCRIPT[cmd]], float)
    vtl = rng.uniform(0.8, 1.3)
    quirk = np.exp(rng.normal(0, 0.12, 3))   # speaker-specific formant offsets
    onset, offset = rng.integers(2, 10), rng.integers(28, 38)
    frames = np.zeros((N_FRAMES, 4))
    mid = rng.uniform(0.35, 0.65)
    for t in range(N_FRAMES):
        u = np.clip((t - onset) / max(offset - onset, 1), 0, 1)
        w = 1 / (1 + np.exp(-(u - mid) * 12))
        f = (1 - w) * targets[0] + w * targets[1]
        frames[t, :3] = f * vtl * quirk * np.exp(rng.normal(0, 0.15, 3))
        voiced = onset <= t <= offset
        frames[t, 3] = (65 if voiced else 30) + rng.normal(0, 3)
    return frames


def make_corpus(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(COMMANDS), n)
    X = np.stack([synth_utterance(COMMANDS[c], rng) for c in y]).astype(np.float32)
    return X, y.astype(np.int64)
