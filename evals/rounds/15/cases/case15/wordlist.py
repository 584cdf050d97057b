import numpy as np

LETTERS = "abcdefghijklmnopqrstuvwxyz"
FREQ = np.array([8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0, 0.2, 0.8, 4.0, 2.4, 6.7, 7.5, 1.9,
                 0.1, 6.0, 6.3, 9.1, 2.8, 1.0, 2.4, 0.2, 2.0, 0.1])
FREQ = FREQ / FREQ.sum()


def counts(word):
    c = np.zeros(26, np.float32)
    for ch in word:
        c[ord(ch) - 97] += 1
    return c


def dictionary(n_words, seed=0):
    rng = np.random.default_rng(seed)
    words, seen = [], set()
    while len(words) < n_words:
        w = "".join(rng.choice(list(LETTERS), size=rng.integers(4, 9), p=FREQ))
        key = "".join(sorted(w))
        if key not in seen:           # keep multisets unique so the task is well posed
            seen.add(key)
            words.append(w)
    return words


def tile_bags(words, n, seed):
    """Letter-count vectors of noisy tile bags and the index of the intended word."""
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(words), n)
    bags = np.zeros((n, 26), np.float32)
    for i, w in enumerate(idx):
        c = counts(words[w])
        r = rng.random()
        if r < 0.35:                  # a tile is missing
            present = np.nonzero(c)[0]
            c[rng.choice(present)] -= 1
        elif r < 0.6:                 # an extra tile
            c[rng.choice(26, p=FREQ)] += 1
        bags[i] = c
    return bags, idx.astype(np.int64)
