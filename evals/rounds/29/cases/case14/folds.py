import numpy as np

TOKENS = ["<done>", "valley", "mountain", "squash", "petal", "reverse",
          "crimp", "rabbit", "sink", "pleat", "tuck", "wing"]


def _transition_table(rng):
    v = len(TOKENS)
    # second-order: P(next | prev2, prev1), sparse and peaked
    table = rng.dirichlet(np.full(v, 0.15), size=(v, v))
    return table


def folding_stream(n_tokens, seed, grammar_seed=5):
    table = _transition_table(np.random.default_rng(grammar_seed))
    rng = np.random.default_rng(seed)
    out = [0, 1]
    while len(out) < n_tokens:
        p = table[out[-2], out[-1]]
        out.append(int(rng.choice(len(TOKENS), p=p)))
    return np.array(out, dtype=np.int64)
