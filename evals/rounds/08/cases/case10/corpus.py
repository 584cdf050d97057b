"""Synthetic corpus: sentences sampled from a tiny stochastic grammar.

The grammar has enough structure (agreement between subject and verb, fixed
function words, sentence boundaries) that a recurrent model can do much better
than the unigram baseline, but not so much that it becomes trivial.
"""
import numpy as np

NOUNS_SG = ["cat", "dog", "bird", "fox", "owl", "frog"]
NOUNS_PL = ["cats", "dogs", "birds", "foxes", "owls", "frogs"]
VERBS_SG = ["runs", "sleeps", "eats", "sees", "jumps"]
VERBS_PL = ["run", "sleep", "eat", "see", "jump"]
ADJ = ["red", "small", "old", "quick", "lazy"]
DET = ["the", "a", "every"]
PREP = ["near", "under", "behind"]
SPECIAL = ["<eos>", "and", "quietly", "often"]


class Vocab:
    def __init__(self):
        words = SPECIAL + DET + ADJ + NOUNS_SG + NOUNS_PL + VERBS_SG + VERBS_PL + PREP
        self.itos = list(dict.fromkeys(words))
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def encode(self, words):
        return [self.stoi[w] for w in words]


def _noun_phrase(rng, plural):
    out = []
    if not plural:
        out.append(DET[rng.integers(len(DET))])
    else:
        out.append("the")
    if rng.random() < 0.5:
        out.append(ADJ[rng.integers(len(ADJ))])
    k = rng.integers(len(NOUNS_SG))
    out.append(NOUNS_PL[k] if plural else NOUNS_SG[k])
    return out


def sentence(rng):
    plural = rng.random() < 0.5
    words = _noun_phrase(rng, plural)
    if rng.random() < 0.3:
        words.append(PREP[rng.integers(len(PREP))])
        words += _noun_phrase(rng, rng.random() < 0.5)
    v = rng.integers(len(VERBS_SG))
    words.append(VERBS_PL[v] if plural else VERBS_SG[v])
    if rng.random() < 0.3:
        words.append("quietly" if rng.random() < 0.5 else "often")
    if rng.random() < 0.2:
        words.append("and")
        v2 = (v + 1 + rng.integers(len(VERBS_SG) - 1)) % len(VERBS_SG)
        words.append(VERBS_PL[v2] if plural else VERBS_SG[v2])
    words.append("<eos>")
    return words


def build_corpus(n_train_tokens=40000, n_valid_tokens=8000, seed=1234):
    rng = np.random.default_rng(seed)
    vocab = Vocab()

    def stream(n):
        toks = []
        while len(toks) < n:
            toks += vocab.encode(sentence(rng))
        return np.array(toks[:n], dtype=np.int64)

    return vocab, stream(n_train_tokens), stream(n_valid_tokens)
