import numpy as np
import torch

MASK = 0  # token 0 is [MASK]; real tokens are 1..vocab-1


def phrase_corpus(n, seq_len, vocab, seed):
    """Sentences stitched from a fixed inventory of short phrases, so context strongly
    constrains each token."""
    rng = np.random.default_rng(1000)
    phrases = [rng.integers(1, vocab, size=rng.integers(3, 6)) for _ in range(60)]
    follow = rng.integers(0, 60, size=(60, 3))
    rng = np.random.default_rng(seed)
    out = np.zeros((n, seq_len), dtype=np.int64)
    for i in range(n):
        toks, p = [], rng.integers(60)
        while len(toks) < seq_len:
            toks.extend(phrases[p].tolist())
            p = follow[p, rng.integers(3)]
        out[i] = toks[:seq_len]
    return torch.from_numpy(out)
