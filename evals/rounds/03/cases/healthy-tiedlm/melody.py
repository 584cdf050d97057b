"""A synthetic melody corpus.

Tokens: 0 = <bar>, then MIDI-like pitches 48..83 mapped to 1..36, plus two duration
markers. A second-order process picks the next pitch from a scale with a
preference for small steps, phrases end on the tonic and every 8 notes a bar
token is emitted, so there is structure a recurrent model can pick up.
"""
import numpy as np

LOW, HIGH = 48, 84
BAR = 0
SHORT, LONG = HIGH - LOW + 1, HIGH - LOW + 2
VOCAB = HIGH - LOW + 3
MAJOR = [0, 2, 4, 5, 7, 9, 11]


def generate_stream(n_tokens, seed):
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n_tokens:
        key = rng.integers(0, 12)
        scale = [p for p in range(LOW, HIGH) if (p - key) % 12 in MAJOR]
        i, prev_step = rng.integers(len(scale) // 3, 2 * len(scale) // 3), 0
        for k in range(rng.integers(4, 9) * 8):
            if k % 8 == 0:
                out.append(BAR)
            step = int(rng.choice([-2, -1, 1, 2, 0, -3, 3], p=[.15, .25, .25, .15, .1, .05, .05]))
            if prev_step and rng.random() < 0.4:      # keep moving the same way
                step = int(np.sign(prev_step)) * abs(step)
            i = int(np.clip(i + step, 0, len(scale) - 1))
            prev_step = step
            out.append(scale[i] - LOW + 1)
            out.append(LONG if k % 8 == 7 else SHORT)
    return np.array(out[:n_tokens], dtype=np.int64)
