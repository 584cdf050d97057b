"""Toy corpus of arithmetic progressions written as token ids.

Every line is "<bos> a a+k a+2k ... <eos>" (mod the number range) with a random
start a, step k and length. A language model should learn to continue them.
"""
import os

import numpy as np

PAD, BOS, EOS = 0, 1, 2
N_SPECIAL = 3
N_NUMBERS = 40
VOCAB_SIZE = N_SPECIAL + N_NUMBERS


def sample_line(rng):
    start = rng.integers(0, N_NUMBERS)
    step = rng.choice([1, 2, 3, 5])
    length = rng.integers(8, 21)
    numbers = (start + step * np.arange(length)) % N_NUMBERS
    return [BOS] + [int(n) + N_SPECIAL for n in numbers] + [EOS]


def build(path, n_lines, seed):
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        for _ in range(n_lines):
            fh.write(" ".join(map(str, sample_line(rng))) + "\n")


def read_lines(path):
    with open(path) as fh:
        return [[int(tok) for tok in line.split()] for line in fh if line.strip()]
