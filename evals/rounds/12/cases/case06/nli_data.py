"""Toy NLI corpus. Tokens come in antonym pairs (2k, 2k+1).

entailment   : every hypothesis token is in the premise
contradiction: one hypothesis token is the antonym of a premise token
neutral      : one hypothesis token (and its antonym) is absent from the premise
"""
import numpy as np

PAD = 0
N_PAIRS = 15
VOCAB = 1 + 2 * N_PAIRS
LABELS = ["entailment", "neutral", "contradiction"]


def _tok(pair, side):
    return 1 + 2 * pair + side


def make_pairs(n, seed):
    rng = np.random.default_rng(seed)
    prem, hyp, lab = [], [], []
    for _ in range(n):
        n_p = rng.integers(5, 9)
        pairs = rng.choice(N_PAIRS, n_p, replace=False)
        sides = rng.integers(0, 2, n_p)
        premise = [_tok(p, s) for p, s in zip(pairs, sides)]
        n_h = rng.integers(2, 5)
        pick = rng.choice(n_p, n_h, replace=False)
        hypothesis = [premise[j] for j in pick]
        label = rng.integers(0, 3)
        if label == 2:
            j = pick[0]
            hypothesis[0] = _tok(pairs[j], 1 - sides[j])
        elif label == 1:
            absent = np.setdiff1d(np.arange(N_PAIRS), pairs)
            hypothesis[0] = _tok(rng.choice(absent), rng.integers(0, 2))
        rng.shuffle(hypothesis)
        prem.append(premise)
        hyp.append(hypothesis)
        lab.append(label)
    return prem, hyp, np.array(lab)


def pad(seqs, length):
    out = np.full((len(seqs), length), PAD, dtype=np.int64)
    for i, s in enumerate(seqs):
        out[i, :len(s)] = s
    return out
