import random

PRODUCTS = ["single", "daypass", "weekly", "group", "bike"]
_FIELDS = {
    "single": [("t", "S1"), ("z", "{z}"), ("v", "90m")],
    "daypass": [("t", "D24"), ("z", "{z}"), ("v", "1d")],
    "weekly": [("t", "W7"), ("z", "{z}"), ("v", "7d"), ("hold", "{h}")],
    "group": [("t", "G"), ("pax", "{p}"), ("z", "{z}"), ("v", "1d")],
    "bike": [("t", "B"), ("addon", "1"), ("v", "1d")],
}


def payload(product, rng):
    fields = [(k, v.format(z=rng.choice("ABCDE"), h=rng.randrange(10**6),
                            p=rng.randint(2, 5)))
              for k, v in _FIELDS[product]]
    fields.append(("id", "%08x" % rng.getrandbits(32)))
    fields.append(("op", rng.choice(["RTV", "RTV2", "NB"])))
    # scanner firmware differences: order, separators, casing, truncation, obfuscation
    rng.shuffle(fields)
    sep = rng.choice([";", "&", "|"])
    text = sep.join(f"{k}={v}" for k, v in fields)
    if rng.random() < 0.3:
        text = text.upper()
    if rng.random() < 0.35:
        # older firmware drops or mangles a field
        parts = text.split(sep)
        parts.pop(rng.randrange(len(parts)))
        text = sep.join(parts)
    if rng.random() < 0.2:
        text = text[: rng.randint(12, max(13, len(text)))]
    return text


def make_payloads(n, seed):
    rng = random.Random(seed)
    xs, ys = [], []
    for _ in range(n):
        y = rng.randrange(len(PRODUCTS))
        xs.append(payload(PRODUCTS[y], rng))
        ys.append(y)
    return xs, ys
