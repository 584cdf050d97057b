import random

PAD, BOS, EOS = 0, 1, 2
STEPS = ["over", "under", "through", "tuck", "wrap", "loop", "pull", "dress", "cross", "flip"]
VOCAB = {s: i + 3 for i, s in enumerate(STEPS)}

# knot -> template; "(...)*" parts repeat 1-3 times
KNOTS = {
    "bowline":     ["loop", "through", "(wrap)*", "under", "through", "pull", "dress"],
    "clove":       ["wrap", "cross", "(wrap)*", "tuck", "pull"],
    "figure8":     ["loop", "flip", "over", "under", "through", "pull", "dress"],
    "sheet_bend":  ["loop", "through", "wrap", "(under)*", "tuck", "pull"],
    "trucker":     ["loop", "flip", "(loop)*", "through", "wrap", "over", "tuck", "pull", "dress"],
    "reef":        ["cross", "over", "under", "(cross)*", "over", "under", "pull"],
}


def expand(template, rng):
    out = []
    for tok in template:
        if tok.endswith("*"):
            out += [tok[1:-2]] * rng.randint(1, 3)
        else:
            out.append(tok)
    # occasional sloppy instruction: a random extra step
    if rng.random() < 0.1:
        out.insert(rng.randrange(len(out)), rng.choice(STEPS))
    return out


def corpus(n, seed):
    rng = random.Random(seed)
    names = sorted(KNOTS)
    seqs = []
    for _ in range(n):
        steps = expand(KNOTS[rng.choice(names)], rng)
        seqs.append([BOS] + [VOCAB[s] for s in steps] + [EOS])
    return seqs


def pad_batch(seqs):
    T = max(len(s) for s in seqs)
    return [s + [PAD] * (T - len(s)) for s in seqs]
