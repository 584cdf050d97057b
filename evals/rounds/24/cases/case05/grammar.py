import random

MOVES = ["<pat>", "C", "T", "X", "pin", "L", "R", "CT", "CTC", "TCT", "swap", "row"]


def stitch(rnd, ground):
    if ground == "torchon":
        return ["CT", "pin", "CT"]
    if ground == "cloth":
        return ["CTC"] + (["T"] if rnd.random() < 0.3 else [])
    return ["TCT", "pin", "TCT"]


def pattern(rnd):
    ground = rnd.choice(["torchon", "cloth", "rose"])
    width = rnd.randint(3, 6)
    out = ["<pat>"]
    for r in range(rnd.randint(3, 6)):
        side = "L" if r % 2 == 0 else "R"
        out.append(side)
        for _ in range(width):
            out += stitch(rnd, ground)
        if rnd.random() < 0.4:
            out += ["swap", "X"]
        out.append("row")
    return out


def corpus(n_patterns, seed):
    rnd = random.Random(seed)
    stream = []
    for _ in range(n_patterns):
        stream += pattern(rnd)
    return [MOVES.index(m) for m in stream]
