import zlib

import numpy as np


def hash_token(tok, buckets):
    return zlib.crc32(tok.encode("utf-8")) % buckets


def vectorize(texts, buckets=2048):
    """log1p term counts over hashed buckets."""
    X = np.zeros((len(texts), buckets), dtype=np.float32)
    for i, t in enumerate(texts):
        for tok in t.split():
            X[i, hash_token(tok, buckets)] += 1.0
    return np.log1p(X)
