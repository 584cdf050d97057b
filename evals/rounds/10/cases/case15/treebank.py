"""Synthetic dependency treebank."""
import numpy as np

N_CATS = 7
WORDS_PER_CAT = 12
VOCAB = 2 + N_CATS * WORDS_PER_CAT   # 0 = PAD, 1 = ROOT
PAD, ROOT = 0, 1


def word_rank(word):
    return (word - 2) // WORDS_PER_CAT


def heads_for(words):
    """words[0] is ROOT. Head of i = nearest word with higher rank, ROOT if none."""
    n = len(words)
    heads = [0] * n
    for i in range(1, n):
        r = word_rank(words[i])
        best = 0
        for dist in range(1, n):
            for j in (i - dist, i + dist):
                if 1 <= j < n and word_rank(words[j]) > r:
                    best = j
                    break
            if best:
                break
        heads[i] = best
    return heads


def make_split(n_sent, max_len, rng):
    L = max_len + 1
    words = np.full((n_sent, L), PAD, dtype=np.int64)
    heads = np.zeros((n_sent, L), dtype=np.int64)
    for s in range(n_sent):
        n = rng.integers(5, max_len + 1)
        w = [ROOT] + list(rng.integers(2, VOCAB, n))
        words[s, :n + 1] = w
        heads[s, :n + 1] = heads_for(w)
    return words, heads
