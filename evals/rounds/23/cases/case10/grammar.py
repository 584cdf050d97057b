import random

TARGETS = ["all", "build", "clean", "test", "install", "lint", "docs", "dist"]
FILES = ["main.o", "util.o", "parse.o", "lexer.o", "app", "libfoo.a", "README", "config.h"]
CMDS = {"cc": ["-c", "-O2", "-Wall", "-o"], "rm": ["-f", "-rf"], "cp": ["-r", "-v"],
        "ar": ["rcs"], "echo": ["done", "building"], "install": ["-m", "755"]}
VARS = ["CC", "CFLAGS", "LDFLAGS", "PREFIX"]

SPECIALS = ["<nl>", "<tab>", ":", "=", "$(", ")", ".PHONY"]


def vocab():
    toks = SPECIALS + TARGETS + FILES + list(CMDS) + sorted({a for v in CMDS.values() for a in v}) + VARS
    return {t: i for i, t in enumerate(dict.fromkeys(toks))}


def makefile(rng):
    out = []
    for v in rng.sample(VARS, rng.randint(1, 3)):
        out += [v, "=", rng.choice(FILES), "<nl>"]
    phony = rng.sample(TARGETS, rng.randint(1, 3))
    out += [".PHONY", ":"] + phony + ["<nl>"]
    for t in phony + rng.sample(FILES, 2):
        out += [t, ":"] + rng.sample(FILES, rng.randint(0, 3)) + ["<nl>"]
        for _ in range(rng.randint(1, 3)):
            cmd = rng.choice(list(CMDS))
            out += ["<tab>", cmd]
            if rng.random() < 0.5:
                out += ["$(", rng.choice(VARS), ")"]
            out += rng.sample(CMDS[cmd], min(len(CMDS[cmd]), rng.randint(1, 2)))
            out += [rng.choice(FILES), "<nl>"]
    return out


def corpus(n_files, seed):
    rng = random.Random(seed)
    v = vocab()
    ids = []
    for _ in range(n_files):
        ids += [v[t] for t in makefile(rng)]
    return ids, v
