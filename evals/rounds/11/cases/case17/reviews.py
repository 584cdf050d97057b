"""Synthetic product reviews with a 1-5 star rating.

A latent sentiment drives both the star rating and which opinion words show up;
most of every review is neutral product chatter.
"""
import numpy as np

POS = ["great", "excellent", "love", "perfect", "amazing", "sturdy", "recommend", "happy",
       "fantastic", "reliable", "comfortable", "worth", "solid", "pleased", "superb", "fast",
       "beautiful", "easy", "best", "awesome"]
NEG = ["terrible", "broke", "waste", "refund", "awful", "cheap", "disappointed", "poor",
       "flimsy", "useless", "returned", "worst", "slow", "defective", "noisy", "leaks",
       "horrible", "annoying", "faulty", "unhappy"]
HEDGE = ["ok", "fine", "decent", "average", "alright", "mixed", "expected", "meh"]


def _neutral_vocab(n=400, seed=0):
    rng = np.random.default_rng(seed)
    syll = ["ka", "lo", "mi", "ter", "on", "pa", "ri", "sen", "tu", "vo", "bel", "dar", "ex", "qui"]
    words = set()
    while len(words) < n:
        words.add("".join(rng.choice(syll, size=rng.integers(2, 4))))
    return sorted(words)


def make_reviews(n, seed):
    rng = np.random.default_rng(seed)
    neutral = _neutral_vocab()
    zipf = 1.0 / np.arange(1, len(neutral) + 1) ** 0.9
    zipf /= zipf.sum()
    texts, stars = [], []
    for _ in range(n):
        s = rng.normal()
        rating = int(np.clip(np.round(3 + 1.25 * s + rng.normal(0, 0.35)), 1, 5))
        length = rng.integers(15, 35)
        words = list(rng.choice(neutral, size=length, p=zipf))
        n_op = rng.poisson(2.5 + 1.5 * abs(s))
        for _ in range(n_op):
            u = rng.random()
            if abs(s) < 0.4 and u < 0.5:
                words.append(rng.choice(HEDGE))
            elif rng.random() < 1 / (1 + np.exp(-2.5 * s)):
                words.append(rng.choice(POS))
            else:
                words.append(rng.choice(NEG))
        rng.shuffle(words)
        texts.append(" ".join(words))
        stars.append(rating)
    return texts, np.array(stars, dtype=np.float32)
