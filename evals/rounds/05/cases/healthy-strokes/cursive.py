import math

import numpy as np
import torch

PEN_DOWN, PEN_UP, END = 0, 1, 2


def write_word(rng, n_letters):
    """Loops and arcs with a forward drift; short pen lifts between letters."""
    pts = []
    for _ in range(n_letters):
        r, speed, loops = rng.uniform(0.6, 1.2), rng.uniform(0.35, 0.55), rng.integers(1, 3)
        steps = int(2 * math.pi * loops / speed)
        phase0 = rng.uniform(0, 2 * math.pi)
        for s in range(steps):
            ph = phase0 + s * speed
            dx = 0.25 + r * speed * -math.sin(ph)
            dy = r * speed * math.cos(ph)
            pts.append((dx, dy, PEN_DOWN))
        pts.append((0.8, 0.0, PEN_UP))
    pts[-1] = (pts[-1][0], pts[-1][1], END)
    return pts


def recording(n_words, seed):
    rng = np.random.default_rng(seed)
    seq = []
    for _ in range(n_words):
        seq += write_word(rng, int(rng.integers(2, 5)))
    arr = np.array(seq, dtype=np.float32)
    arr[:, :2] += rng.normal(0, 0.02, size=(len(arr), 2)).astype(np.float32)
    return torch.from_numpy(arr[:, :2]), torch.from_numpy(arr[:, 2].astype(np.int64))
