"""Synthetic ticket corpus for multi-label tagging."""
import numpy as np

TAGS = ["billing", "refund", "login", "password", "mobile", "android", "ios", "export",
        "api", "latency", "outage", "invoice", "integration", "onboarding"]


def make_corpus(n_docs, vocab_size, seed, words_per_doc=(25, 60)):
    rng = np.random.default_rng(seed)
    n_tags = len(TAGS)
    # every tag owns a handful of characteristic words; other words are shared filler
    topic = np.full((n_tags, vocab_size), 0.2)
    for t in range(n_tags):
        own = rng.choice(vocab_size, size=12, replace=False)
        topic[t, own] += rng.uniform(3, 10, size=12)
    topic /= topic.sum(1, keepdims=True)
    filler = rng.dirichlet(np.full(vocab_size, 0.3))
    # tag co-occurrence: some tags tend to come in pairs
    prior = rng.uniform(0.04, 0.22, n_tags)
    buddy = rng.permutation(n_tags)

    counts = np.zeros((n_docs, vocab_size), dtype=np.float32)
    labels = np.zeros((n_docs, n_tags), dtype=np.float32)
    for d in range(n_docs):
        tags = rng.random(n_tags) < prior
        extra = tags & (rng.random(n_tags) < 0.35)
        tags[buddy[extra]] = True
        if not tags.any():
            tags[rng.integers(n_tags)] = True
        labels[d] = tags
        n_words = rng.integers(*words_per_doc)
        mix = 0.3 * filler + 0.7 * topic[tags].mean(0)
        counts[d] = rng.multinomial(n_words, mix)
    return counts, labels


def tfidf(counts, idf=None):
    tf = np.log1p(counts)
    if idf is None:
        df = (counts > 0).sum(0)
        idf = np.log((1 + len(counts)) / (1 + df)) + 1
    x = tf * idf
    x /= np.linalg.norm(x, axis=1, keepdims=True) + 1e-8
    return x.astype(np.float32), idf
