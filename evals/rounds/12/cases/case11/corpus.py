"""Synthetic review snippets for 3-way sentiment (negative / neutral / positive).

Vocabulary: 600 ids. 0 = <pad>. A few dozen words carry polarity with
different strengths; the rest are topical filler.
"""
import numpy as np

PAD = 0
VOCAB_SIZE = 600
N_CLASSES = 3


def _lexicon(rng):
    ids = rng.permutation(np.arange(1, VOCAB_SIZE))
    pos, neg = ids[:40], ids[40:80]
    strength = np.zeros(VOCAB_SIZE)
    strength[pos] = rng.uniform(0.5, 2.0, 40)
    strength[neg] = -rng.uniform(0.5, 2.0, 40)
    return pos, neg, strength


def make_reviews(n, max_len=24, seed=0, lexicon_seed=1234):
    lex_rng = np.random.default_rng(lexicon_seed)
    pos, neg, strength = _lexicon(lex_rng)
    filler = np.setdiff1d(np.arange(1, VOCAB_SIZE), np.concatenate([pos, neg]))
    rng = np.random.default_rng(seed)
    X = np.full((n, max_len), PAD, np.int64)
    y = np.zeros(n, np.int64)
    for i in range(n):
        length = rng.integers(8, max_len + 1)
        n_pol = rng.integers(0, 4)
        words = list(rng.choice(filler, length - n_pol))
        polar = rng.choice(np.concatenate([pos, neg]), n_pol)
        words += list(polar)
        rng.shuffle(words)
        X[i, :length] = words
        score = strength[polar].sum() + rng.normal(0, 0.3)
        y[i] = 0 if score < -0.7 else (2 if score > 0.7 else 1)
    return X, y
