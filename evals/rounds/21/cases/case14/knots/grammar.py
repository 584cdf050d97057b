import numpy as np

STEPS = ["<s>", "lark", "square_L", "square_R", "half_hitch", "double_hitch",
         "spiral", "gather", "bead", "trim", "</s>"]
PATTERNS = {
    "sennit": ["square_L", "square_R"],
    "spiral": ["spiral", "spiral", "spiral"],
    "diagonal": ["half_hitch", "double_hitch"],
    "bead_row": ["square_L", "bead", "square_R"],
}


def sample_sequence(rng, max_len=32):
    seq = ["<s>", "lark", "lark"]
    while len(seq) < max_len - 3:
        name = list(PATTERNS)[rng.integers(len(PATTERNS))]
        reps = rng.integers(1, 4)
        for _ in range(reps):
            seq += PATTERNS[name]
        if rng.random() < 0.3:
            seq.append("gather")
    seq = seq[:max_len - 2] + ["trim", "</s>"]
    return [STEPS.index(s) for s in seq]


def corpus(n, seed, max_len=32):
    rng = np.random.default_rng(seed)
    out = np.zeros((n, max_len), np.int64)
    for i in range(n):
        s = sample_sequence(rng, max_len)
        out[i, :len(s)] = s
    return out
