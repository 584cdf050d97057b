import re
from collections import Counter

import numpy as np

_TOKEN = re.compile(r"[a-z']+")


def tokenize(text):
    return _TOKEN.findall(text.lower())


def build_vocab(texts, min_count=1, max_size=None):
    """Most frequent tokens first; ties broken alphabetically so the order is stable."""
    counts = Counter(tok for t in texts for tok in tokenize(t))
    items = sorted((kv for kv in counts.items() if kv[1] >= min_count), key=lambda kv: (-kv[1], kv[0]))
    if max_size is not None:
        items = items[:max_size]
    return {tok: i for i, (tok, _) in enumerate(items)}


def bag_of_words(texts, vocab):
    X = np.zeros((len(texts), len(vocab)), dtype=np.float32)
    for r, t in enumerate(texts):
        for tok in tokenize(t):
            j = vocab.get(tok)
            if j is not None:
                X[r, j] += 1.0
    # sublinear tf, then scale each review to unit length
    X = np.log1p(X)
    X /= np.linalg.norm(X, axis=1, keepdims=True) + 1e-8
    return X


def featurize(texts, vocab_cfg):
    vocab = build_vocab(texts, vocab_cfg["min_count"], vocab_cfg["max_size"])
    return bag_of_words(texts, vocab), vocab
