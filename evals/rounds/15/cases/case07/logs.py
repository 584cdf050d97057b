import zlib

import numpy as np

TOPICS = ["true-crime", "history", "comedy", "tech", "politics", "sports", "science", "business",
          "health", "music", "film", "gaming", "food", "travel", "parenting", "religion", "ai",
          "crypto", "climate", "books", "fashion", "cars", "space", "design", "language"]
N_BUCKETS = 512
MAX_TAGS = 6


def hash_tag(tag, n_buckets=N_BUCKETS):
    return 1 + zlib.crc32(tag.encode()) % (n_buckets - 1)   # 0 is padding


def simulate(n, seed, n_users=100):
    urng = np.random.default_rng(123)
    taste = urng.normal(0, 1.0, (n_users, len(TOPICS)))
    patience = urng.normal(0, 0.7, n_users)
    rng = np.random.default_rng(seed)
    tags = np.zeros((n, MAX_TAGS), np.int64)
    topic_mask = np.zeros((n, len(TOPICS)))
    users = rng.integers(0, n_users, n)
    for i in range(n):
        k = rng.integers(1, MAX_TAGS + 1)
        chosen = rng.choice(len(TOPICS), k, replace=False)
        topic_mask[i, chosen] = 1
        # tags also carry a subtopic suffix sometimes, which hashes elsewhere
        tags[i, :k] = [hash_tag(TOPICS[c] + ("/deep-dive" if rng.random() < 0.3 else "")) for c in chosen]
    length = rng.uniform(10, 120, n)
    skip_rate_hist = 1 / (1 + np.exp(-(-patience[users] + rng.normal(0, 0.3, n))))
    affinity = (topic_mask * taste[users]).sum(1) / topic_mask.sum(1)
    logit = -0.3 - 3.0 * affinity + 5.0 * (skip_rate_hist - 0.5) + 0.012 * (length - 60)
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    num = np.stack([skip_rate_hist, (length - 60) / 30], 1).astype(np.float32)
    return users, tags, num, y
