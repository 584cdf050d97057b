"""Toy ticket generator: each topic owns a set of pseudo-words; filler words are shared."""
import random

TOPICS = ["billing", "network", "hardware", "account"]
_SYL = ["ka", "lo", "mi", "ne", "ru", "ta", "vi", "zo", "be", "du", "fa", "gi",
        "ho", "ju", "pe", "si", "to", "we", "xa", "yu"]


def _words(rng, n, prefix_len):
    out = set()
    while len(out) < n:
        out.add("".join(rng.choice(_SYL) for _ in range(prefix_len)))
    return sorted(out)


def make_corpus(n, min_len=6, max_len=48, seed=0):
    lex_rng = random.Random(1)  # lexicon fixed across splits
    filler = _words(lex_rng, 300, 2)
    pool = [w for w in _words(lex_rng, 700, 3) if w not in filler]
    topic_words = {t: pool[i * 120:(i + 1) * 120] for i, t in enumerate(TOPICS)}

    rng = random.Random(seed)
    texts, labels = [], []
    for _ in range(n):
        y = rng.randrange(len(TOPICS))
        length = rng.randint(min_len, max_len)
        toks = []
        for _ in range(length):
            u = rng.random()
            if u < 0.18:
                toks.append(rng.choice(topic_words[TOPICS[y]]))
            elif u < 0.24:
                other = TOPICS[rng.randrange(len(TOPICS))]
                toks.append(rng.choice(topic_words[other]))
            else:
                toks.append(rng.choice(filler))
        texts.append(" ".join(toks))
        labels.append(y)
    return texts, labels
