"""Tiny synthetic corpus with BIO tags."""
import random

TAGS = ["O", "B-QTY", "I-QTY", "B-ORG", "I-ORG"]
NUMBERS = ["one", "two", "three", "four", "five", "twelve", "twenty", "forty", "100", "250", "7", "3000"]
UNITS = ["kg", "boxes", "pallets", "tons", "crates"]
SUFFIX = ["Corp", "Ltd", "Inc", "GmbH"]
CONSONANTS = "bcdfghklmnprstvz"
VOWELS = "aeiou"


def fake_word(rng, capital=False):
    w = "".join(rng.choice(CONSONANTS) + rng.choice(VOWELS) for _ in range(rng.randint(1, 4)))
    return w.capitalize() if capital else w


def sentence(rng):
    words, tags = [], []
    while len(words) < rng.randint(6, 16):
        r = rng.random()
        if r < 0.2:
            words.append(rng.choice(NUMBERS)); tags.append("B-QTY")
            if rng.random() < 0.6:
                words.append(rng.choice(UNITS)); tags.append("I-QTY")
        elif r < 0.35:
            n = rng.randint(1, 2)
            for j in range(n):
                words.append(fake_word(rng, capital=True)); tags.append("B-ORG" if j == 0 else "I-ORG")
            words.append(rng.choice(SUFFIX)); tags.append("I-ORG")
        else:
            # ordinary words, sometimes capitalised at random (names, sentence starts)
            words.append(fake_word(rng, capital=rng.random() < 0.15)); tags.append("O")
    return words, tags


def build(n, seed):
    rng = random.Random(seed)
    return [sentence(rng) for _ in range(n)]


def spans(tags):
    out, start, kind = set(), None, None
    for i, t in enumerate(tags + ["O"]):
        if t.startswith("B-") or t == "O" or (t.startswith("I-") and t[2:] != kind):
            if start is not None:
                out.add((start, i, kind))
            start, kind = (i, t[2:]) if t != "O" else (None, None)
    return out
