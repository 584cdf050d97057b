"""A tiny grammar of INI files and its tokenizer."""
import random

SECTIONS = {
    "server": [("host", "str"), ("port", "int"), ("timeout", "float"), ("tls", "bool")],
    "database": [("url", "str"), ("pool", "int"), ("retry", "int"), ("echo", "bool")],
    "logging": [("level", "level"), ("file", "str"), ("rotate", "int")],
    "cache": [("ttl", "int"), ("size", "int"), ("backend", "str")],
}
LEVELS = ["debug", "info", "warning", "error"]
WORDS = ["alpha", "beta", "local", "prod", "main", "tmp", "var", "data"]


def value_tokens(kind, rng):
    if kind == "int":
        return [str(d) for d in str(rng.randint(1, 999))]
    if kind == "float":
        return [str(rng.randint(0, 9)), ".", str(rng.randint(0, 9))]
    if kind == "bool":
        return [rng.choice(["true", "false"])]
    if kind == "level":
        return [rng.choice(LEVELS)]
    return ['"', rng.choice(WORDS), rng.choice(["/", "."]), rng.choice(WORDS), '"']


def ini_file(rng):
    toks = []
    for sec in rng.sample(list(SECTIONS), rng.randint(2, 4)):
        if rng.random() < 0.3:
            toks += [";", "comment", "\n"]
        toks += ["[", sec, "]", "\n"]
        for key, kind in SECTIONS[sec]:
            if rng.random() < 0.85:
                toks += [key, "="] + value_tokens(kind, rng) + ["\n"]
        toks.append("\n")
    toks.append("<eof>")
    return toks


def corpus(n_files, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(n_files):
        out += ini_file(rng)
    return out


def build_vocab(tokens):
    itos = sorted(set(tokens))
    return {t: i for i, t in enumerate(itos)}, itos
