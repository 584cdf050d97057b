import random

PAD, BOS, EOS = "<pad>", "<bos>", "<eos>"
CATS = ["shoes", "bags", "hats", "socks", "belts"]
IDS = [str(i) for i in range(10)]
ROUTES = {
    "shop": lambda r: ["shop", r.choice(CATS), r.choice(IDS), r.choice(["reviews", "photos", "buy"])],
    "api": lambda r: ["api", r.choice(["v1", "v2"]), "users", r.choice(IDS), r.choice(["orders", "cart"])],
    "blog": lambda r: ["blog", r.choice(["2021", "2022", "2023"]), r.choice(IDS), "comments"],
    "help": lambda r: ["help", r.choice(["faq", "contact"])],
}


def sample_paths(n, seed):
    r = random.Random(seed)
    out = []
    for _ in range(n):
        kind = r.choices(list(ROUTES), weights=[4, 3, 2, 1])[0]
        out.append(ROUTES[kind](r))
    return out


def build_vocab():
    toks = {PAD, BOS, EOS, "shop", "api", "blog", "help", "users", "comments", "faq", "contact",
            "reviews", "photos", "buy", "orders", "cart", "v1", "v2", "2021", "2022", "2023"}
    toks |= set(CATS) | set(IDS)
    itos = [PAD] + sorted(toks - {PAD})
    return {t: i for i, t in enumerate(itos)}, itos
