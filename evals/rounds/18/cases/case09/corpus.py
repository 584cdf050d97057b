import zlib

import numpy as np

GENRES = ["true_crime", "tech", "sports", "comedy", "history", "health"]
VOCAB = 3000
PAD = 0


def bucket(word_id, n_buckets):
    return zlib.crc32(f"w{word_id}".encode()) % (n_buckets - 1) + 1


def make_transcripts(n, n_buckets, max_len=120, seed=0):
    topic_rng = np.random.default_rng(99)
    base = topic_rng.dirichlet(np.ones(VOCAB) * 0.3)
    genre_dists = []
    for g in range(len(GENRES)):
        boost = np.zeros(VOCAB)
        boost[topic_rng.choice(VOCAB, 60, replace=False)] = topic_rng.uniform(2, 8, 60)
        d = base + boost / VOCAB * 10
        genre_dists.append(d / d.sum())
    rng = np.random.default_rng(seed)
    X = np.full((n, max_len), PAD, np.int64)
    y = rng.integers(0, len(GENRES), n)
    for i in range(n):
        L = rng.integers(30, max_len + 1)
        words = rng.choice(VOCAB, L, p=genre_dists[y[i]])
        X[i, :L] = [bucket(w, n_buckets) for w in words]
    return X, y
