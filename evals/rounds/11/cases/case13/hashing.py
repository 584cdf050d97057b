import zlib

import numpy as np


def char_ngrams(text, n_min=2, n_max=4):
    grams = []
    for word in text.split():
        w = f"<{word}>"
        for n in range(n_min, n_max + 1):
            for i in range(len(w) - n + 1):
                grams.append(w[i:i + n])
    return grams


def hash_features(texts, n_buckets=2048, n_min=2, n_max=4):
    """Hashing trick: crc32 of every char n-gram mod n_buckets, log-count + l2 norm."""
    X = np.zeros((len(texts), n_buckets), dtype=np.float32)
    for r, t in enumerate(texts):
        for g in char_ngrams(t, n_min, n_max):
            X[r, zlib.crc32(g.encode("utf8")) % n_buckets] += 1.0
    X = np.log1p(X)
    X /= np.linalg.norm(X, axis=1, keepdims=True) + 1e-8
    return X


def bucket_by_length(texts):
    """Order texts by length so batches hold similar-sized tickets (cheaper hashing cache)."""
    return sorted(texts, key=len)
