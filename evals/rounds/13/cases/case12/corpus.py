"""Random programs in toylang and a fixed tokenizer."""
import random

VARS = ["a", "b", "c", "n", "i", "x"]
NUMS = [str(k) for k in range(10)]
KEYWORDS = ["let", "if", "while", "print", "end", "do", "then"]
SYMBOLS = ["=", "+", "-", "*", "<", ">", "==", "(", ")", ";", "\n"]
VOCAB = ["<pad>", "<bos>"] + KEYWORDS + SYMBOLS + VARS + NUMS
STOI = {t: i for i, t in enumerate(VOCAB)}


def expr(r, depth=0):
    if depth > 1 or r.random() < 0.5:
        return [r.choice(VARS)] if r.random() < 0.6 else [r.choice(NUMS)]
    return expr(r, depth + 1) + [r.choice(["+", "-", "*"])] + expr(r, depth + 1)


def cond(r):
    return [r.choice(VARS), r.choice(["<", ">", "=="]), r.choice(NUMS)]


def stmt(r, depth=0):
    k = r.random()
    if depth < 2 and k < 0.2:
        body = sum((stmt(r, depth + 1) for _ in range(r.randint(1, 2))), [])
        return ["if"] + cond(r) + ["then", "\n"] + body + ["end", "\n"]
    if depth < 2 and k < 0.35:
        v = r.choice(VARS)
        body = sum((stmt(r, depth + 1) for _ in range(r.randint(1, 2))), [])
        return (["while", v, "<", r.choice(NUMS), "do", "\n"] + body
                + ["let", v, "=", v, "+", "1", ";", "\n", "end", "\n"])
    if k < 0.5:
        return ["print", "("] + expr(r) + [")", ";", "\n"]
    return ["let", r.choice(VARS), "="] + expr(r) + [";", "\n"]


def program(r):
    return ["<bos>"] + sum((stmt(r) for _ in range(r.randint(3, 8))), [])


def token_stream(n_programs, seed):
    r = random.Random(seed)
    ids = []
    for _ in range(n_programs):
        ids.extend(STOI[t] for t in program(r))
    return ids
