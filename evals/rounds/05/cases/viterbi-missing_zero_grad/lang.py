"""A toy tag language. Tags follow a sparse Markov chain; many tokens are ambiguous
between tags, so the transition structure carries a lot of the signal."""
import numpy as np
import torch

TAGS = ["O", "B-QTY", "I-QTY", "B-ITEM", "I-ITEM", "B-PORT", "I-PORT"]
N_TAGS = len(TAGS)
VOCAB = 60


def _chain(rng):
    T = np.full((N_TAGS, N_TAGS), 0.01)
    allowed = {0: [0, 1, 3, 5], 1: [2, 3], 2: [2, 3], 3: [4, 0], 4: [4, 0, 5], 5: [6, 0], 6: [6, 0]}
    for a, bs in allowed.items():
        T[a, bs] += rng.dirichlet(np.ones(len(bs))) * 5
    return T / T.sum(1, keepdims=True)


def _emissions(rng):
    E = np.full((N_TAGS, VOCAB), 1e-3)
    for t in range(N_TAGS):
        # B- and I- of the same chunk share most of their tokens: only position tells them apart
        group = (t + 1) // 2 if t else 0
        own = rng.choice(VOCAB, size=12, replace=False)
        shared = np.arange(group * 8, group * 8 + 8)
        E[t, shared] += 1.0
        E[t, own] += 0.3
    return E / E.sum(1, keepdims=True)


def corpus(n_sent, seed, lang_seed=7, min_len=8, max_len=20):
    lang = np.random.default_rng(lang_seed)
    T, E = _chain(lang), _emissions(lang)
    rng = np.random.default_rng(seed)
    sents = []
    for _ in range(n_sent):
        L = int(rng.integers(min_len, max_len + 1))
        tags = [0]
        for _ in range(L - 1):
            tags.append(int(rng.choice(N_TAGS, p=T[tags[-1]])))
        toks = [int(rng.choice(VOCAB, p=E[t])) for t in tags]
        sents.append((torch.tensor(toks), torch.tensor(tags)))
    return sents
