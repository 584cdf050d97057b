"""Tiny YAML-ish grammar. Tokens are whole symbols, not characters."""
import random

SPECIALS = ["<pad>", "<bos>", "<eos>", "NL", "INDENT", "DEDENT", ":", "-", "[", "]", ","]
KEYS = {
    "name": "word", "host": "word", "image": "word",
    "port": "int", "replicas": "int", "timeout": "int",
    "debug": "bool", "enabled": "bool",
    "tags": "list", "env": "block", "limits": "block",
}
WORDS = ["alpha", "beta", "web", "db", "cache", "edge", "worker", "api"]
INTS = [str(i) for i in (1, 2, 3, 8, 80, 443, 8080, 30)]
BOOLS = ["true", "false"]
VOCAB = SPECIALS + list(KEYS) + WORDS + INTS + BOOLS
STOI = {t: i for i, t in enumerate(VOCAB)}
PAD = STOI["<pad>"]


def _mapping(rng, depth, out):
    keys = rng.sample(list(KEYS), rng.randint(2, 4))
    for k in keys:
        kind = KEYS[k]
        if kind == "block" and depth >= 1:
            kind = "int"
        out += [k, ":"]
        if kind == "word":
            out += [rng.choice(WORDS), "NL"]
        elif kind == "int":
            out += [rng.choice(INTS), "NL"]
        elif kind == "bool":
            out += [rng.choice(BOOLS), "NL"]
        elif kind == "list":
            items = [rng.choice(WORDS) for _ in range(rng.randint(1, 3))]
            out.append("[")
            for j, it in enumerate(items):
                out += ([","] if j else []) + [it]
            out += ["]", "NL"]
        else:
            out += ["NL", "INDENT"]
            _mapping(rng, depth + 1, out)
            out += ["DEDENT"]


def sample_document(rng):
    out = ["<bos>"]
    _mapping(rng, 0, out)
    out.append("<eos>")
    return [STOI[t] for t in out]


def corpus(n, seed):
    rng = random.Random(seed)
    return [sample_document(rng) for _ in range(n)]
