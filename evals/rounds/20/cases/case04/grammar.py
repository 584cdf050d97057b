import random

OPS2 = ["add", "sub", "mul", "lt", "eq"]
OPS1 = ["neg", "abs", "not"]
ATOMS = ["x", "y", "a", "b", "0", "1", "2", "3"]

SPECIALS = ["<pad>", "<bos>", "<eos>", "(", ")", "if", "let"]
VOCAB = SPECIALS + OPS2 + OPS1 + ATOMS
STOI = {t: i for i, t in enumerate(VOCAB)}
PAD, BOS, EOS = STOI["<pad>"], STOI["<bos>"], STOI["<eos>"]


def expr(rng, depth):
    if depth <= 0 or rng.random() < 0.25:
        return [rng.choice(ATOMS)]
    r = rng.random()
    if r < 0.5:
        return ["(", rng.choice(OPS2)] + expr(rng, depth - 1) + expr(rng, depth - 1) + [")"]
    if r < 0.75:
        return ["(", rng.choice(OPS1)] + expr(rng, depth - 1) + [")"]
    if r < 0.9:
        return ["(", "if"] + expr(rng, depth - 1) + expr(rng, depth - 1) + expr(rng, depth - 1) + [")"]
    v = rng.choice(["x", "y"])
    return ["(", "let", v] + expr(rng, depth - 1) + expr(rng, depth - 1) + [")"]


def sample_programs(n, max_len=40, seed=0):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        toks = expr(rng, 4)
        if 3 <= len(toks) <= max_len - 2:
            out.append([BOS] + [STOI[t] for t in toks] + [EOS])
    return out
