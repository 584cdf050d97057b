"""Tiny stage grammar for puppet scripts."""
import random

CHARS = ["PUNCH", "JUDY", "BABY", "CROCODILE", "POLICEMAN", "JOEY", "DOCTOR"]
PROPS = ["SAUSAGES", "STICK", "PAN", "BELL"]


def beat(r):
    a, b = r.sample(CHARS, 2)
    p = r.choice(PROPS)
    kind = r.randrange(6)
    if kind == 0:
        return [a, "enters", "with", "the", p, "."]
    if kind == 1:
        return [a, "hits", b, "with", "the", p, ".", b, "cries", "."]
    if kind == 2:
        return ["AUDIENCE", ":", "he's", "behind", "you", "!", a, ":", "oh", "no", "he", "isn't", "!"]
    if kind == 3:
        return ["CROCODILE", "steals", "the", "SAUSAGES", ".", a, "chases", "CROCODILE", "."]
    if kind == 4:
        return [a, ":", "that's", "the", "way", "to", "do", "it", "!"]
    return [a, "gives", b, "the", p, ".", b, "drops", "the", p, "."]


def script(r, max_beats):
    toks = ["<s>"]
    for _ in range(r.randint(2, max_beats)):
        toks += beat(r)
    return toks + ["</s>"]


def build_vocab():
    r = random.Random(0)
    vocab = {"<pad>": 0}
    for _ in range(3000):
        for t in beat(r):
            vocab.setdefault(t, len(vocab))
    for t in ["<s>", "</s>"] + CHARS + PROPS:
        vocab.setdefault(t, len(vocab))
    return vocab
