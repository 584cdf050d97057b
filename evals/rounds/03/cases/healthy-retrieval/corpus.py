"""Synthetic catalogue search.

Vocabulary: BASE word ids 1..150, each with one synonym id (+150); 0 is padding.
A document = 6 words from its category + 10 rare words; documents use a
synonym instead of the word 30% of the time. A query = 4 words of its document
(mostly rare ones), each swapped for its synonym half of the time, plus 1 noise word.
"""
import numpy as np

PAD = 0
BASE = 150
VOCAB = 2 * BASE + 1
N_CATEGORIES = 25
DOC_LEN = 16
QUERY_LEN = 5


def synonym(w):
    return w + BASE if w <= BASE else w - BASE


class Catalogue:
    def __init__(self, seed=0):
        rng = np.random.default_rng(seed)
        self.category_words = [rng.choice(np.arange(1, BASE + 1), 10, replace=False)
                               for _ in range(N_CATEGORIES)]
        self.rng = rng

    def documents(self, n):
        rng = self.rng
        docs = np.zeros((n, DOC_LEN), dtype=np.int64)
        for i in range(n):
            cat = self.category_words[rng.integers(N_CATEGORIES)]
            words = np.concatenate([rng.choice(cat, 6, replace=False),
                                    rng.integers(1, BASE + 1, DOC_LEN - 6)])
            swap = rng.random(DOC_LEN) < 0.3
            docs[i] = [synonym(w) if s else w for w, s in zip(words, swap)]
        return docs

    def queries(self, docs):
        rng = self.rng
        q = np.zeros((len(docs), QUERY_LEN), dtype=np.int64)
        for i, d in enumerate(docs):
            pos = np.concatenate([rng.choice(np.arange(6), 1), rng.choice(np.arange(6, DOC_LEN), 3, replace=False)])
            words = [synonym(w) if rng.random() < 0.5 else w for w in d[pos]]
            q[i] = words + [int(rng.integers(1, VOCAB))]
        return q

    def unlabeled_text(self, n):
        """Raw catalogue text used to pre-train the word vectors (no query pairs)."""
        return self.documents(n)
