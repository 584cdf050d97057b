"""Synthetic tunes: motifs + scale-degree walk, rendered as MIDI-ish pitch tokens."""
import random

MAJOR = [0, 2, 4, 5, 7, 9, 11]
MINOR = [0, 2, 3, 5, 7, 8, 10]
LOW = 55                       # pitch tokens cover 55..78
N_PITCH = 24
REST, BAR, END = N_PITCH, N_PITCH + 1, N_PITCH + 2
VOCAB = N_PITCH + 3


def degree_to_token(key, scale, degree):
    octave, step = divmod(degree, 7)
    pitch = 60 + key + 12 * octave + scale[step]
    while pitch < LOW:
        pitch += 12
    while pitch >= LOW + N_PITCH:
        pitch -= 12
    return pitch - LOW


def tune(rng):
    key = rng.randrange(-5, 6)
    scale = rng.choice([MAJOR, MINOR])
    motifs = [[rng.choice([-2, -1, 0, 1, 2, 3]) for _ in range(4)] for _ in range(2)]
    form = rng.choice(["AABA", "ABAB", "AABB"])
    toks, deg = [], 0
    for part in form:
        m = motifs[ord(part) - ord("A")]
        for bar in range(2):
            deg = 0 if bar == 0 else deg
            for step in m:
                if rng.random() < 0.1:
                    toks.append(REST)
                    continue
                deg = max(-3, min(9, deg + step + (1 if rng.random() < 0.15 else 0)))
                toks.append(degree_to_token(key, scale, deg))
            toks.append(BAR)
    toks.append(degree_to_token(key, scale, 0))    # tunes end on the tonic
    toks.append(END)
    return toks


def make_stream(n_tunes, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n_tunes):
        out.extend(tune(rng))
    return out
