"""Synthetic ticket corpus.

Each queue has a handful of cue tokens ("refund", "password", ...) that appear a few
times in a ticket; the rest is filler drawn from a shared Zipf-like vocabulary.
The corpus is written queue by queue, like an export from the ticketing system.
"""
import numpy as np

PAD = 0
VOCAB = 400
QUEUES = ["billing", "account", "shipping", "technical"]
CUES_PER_QUEUE = 12


def generate(n_per_queue, seed, min_len=6, max_len=60):
    rng = np.random.default_rng(seed)
    filler_p = 1.0 / np.arange(1, VOCAB - 1 - len(QUEUES) * CUES_PER_QUEUE + 1)
    filler_p /= filler_p.sum()
    filler_ids = np.arange(1 + len(QUEUES) * CUES_PER_QUEUE, VOCAB)
    texts, labels = [], []
    for q in range(len(QUEUES)):
        cues = 1 + q * CUES_PER_QUEUE + np.arange(CUES_PER_QUEUE)
        for _ in range(n_per_queue):
            n = int(rng.integers(min_len, max_len + 1))
            toks = rng.choice(filler_ids, size=n, p=filler_p)
            k = max(1, int(rng.binomial(n, 0.12)))
            pos = rng.choice(n, size=k, replace=False)
            # a fifth of the cue hits are borrowed from another queue (tickets are messy)
            other = (q + rng.integers(1, len(QUEUES), size=k)) % len(QUEUES)
            src = np.where(rng.random(k) < 0.2, other, q)
            toks[pos] = 1 + src * CUES_PER_QUEUE + rng.integers(0, CUES_PER_QUEUE, size=k)
            texts.append(toks.astype(np.int64))
            labels.append(q)
    return texts, np.array(labels)
