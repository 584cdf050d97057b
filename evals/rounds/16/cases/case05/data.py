import numpy as np
import torch

from letters import ALPHABET


def random_words(rng, n, length):
    return rng.integers(0, len(ALPHABET), size=(n, length))


def make_pairs(n, length, seed):
    """Balanced pairs: label 1 = valid ladder step (exactly one position changed)."""
    rng = np.random.default_rng(seed)
    a = random_words(rng, n, length)
    b = a.copy()
    y = np.zeros(n, dtype=np.float32)
    kind = rng.integers(0, 4, size=n)
    for i in range(n):
        if kind[i] <= 1:  # one changed letter
            p = rng.integers(length)
            b[i, p] = (a[i, p] + rng.integers(1, len(ALPHABET))) % len(ALPHABET)
            y[i] = 1.0
        elif kind[i] == 2:  # two changed letters
            p, q = rng.choice(length, 2, replace=False)
            b[i, p] = (a[i, p] + rng.integers(1, len(ALPHABET))) % len(ALPHABET)
            b[i, q] = (a[i, q] + rng.integers(1, len(ALPHABET))) % len(ALPHABET)
        else:  # neighbouring letters swapped (plus one change if they happen to be equal)
            p = rng.integers(length - 1)
            b[i, p], b[i, p + 1] = a[i, p + 1], a[i, p]
            if a[i, p] == a[i, p + 1]:
                q = (p + 2) % length
                b[i, q] = (a[i, q] + 1) % len(ALPHABET)
                b[i, p] = (a[i, p] + 3) % len(ALPHABET)
    return torch.from_numpy(a), torch.from_numpy(b), torch.from_numpy(y)
