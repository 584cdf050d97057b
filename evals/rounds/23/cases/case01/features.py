"""Hashed bag-of-words features."""
import math
import zlib

import numpy as np

from archive import TOPICS


def bucket(token, n_buckets):
    return zlib.crc32(token.encode("utf-8")) % n_buckets


def hash_bow(text, n_buckets):
    v = np.zeros(n_buckets, dtype=np.float32)
    for tok in text.lower().split():
        v[bucket(tok, n_buckets)] += 1.0
    return v


def vectorize(records, n_buckets=1024):
    """Returns (X, ids). Rows are ordered by accession id so the cache is reproducible."""
    by_id = {r["id"]: r for r in records}
    ids = sorted(by_id)
    X = np.stack([hash_bow(by_id[i]["text"], n_buckets) for i in ids])
    # sublinear tf + document-frequency weighting
    X = np.log1p(X)
    df = (X > 0).sum(axis=0)
    idf = np.log((1 + len(ids)) / (1 + df)) + 1.0
    X = X * idf
    X /= np.linalg.norm(X, axis=1, keepdims=True) + 1e-8
    return X.astype(np.float32), ids


def topic_labels(records):
    return np.array([TOPICS.index(r["topic"]) for r in records], dtype=np.int64)
