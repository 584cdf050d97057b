import random

SPECIALS = ["<pad>", "<bos>", "<eos>", "|", "---", "\\n"]
COLUMNS = {
    "name": ["ada", "bo", "cy", "dee", "eli", "fay"],
    "qty": [str(i) for i in range(1, 13)],
    "price": ["0.99", "1.50", "2.25", "3.00", "4.75", "9.99"],
    "city": ["oslo", "lima", "pune", "kyiv", "nara"],
    "date": ["mon", "tue", "wed", "thu", "fri"],
}
VOCAB = SPECIALS + list(COLUMNS) + sorted({v for vals in COLUMNS.values() for v in vals})
STOI = {t: i for i, t in enumerate(VOCAB)}
PAD = STOI["<pad>"]


def row(cells):
    out = ["|"]
    for c in cells:
        out += [c, "|"]
    return out + ["\\n"]


def sample_table(rng: random.Random):
    cols = rng.sample(list(COLUMNS), rng.randint(2, 4))
    toks = ["<bos>"] + row(cols) + row(["---"] * len(cols))
    for _ in range(rng.randint(1, 4)):
        toks += row([rng.choice(COLUMNS[c]) for c in cols])
    toks.append("<eos>")
    return [STOI[t] for t in toks]


def corpus(n, seed):
    rng = random.Random(seed)
    return [sample_table(rng) for _ in range(n)]
