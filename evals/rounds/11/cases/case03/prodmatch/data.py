"""Synthetic marketplace offers.

Every catalogue product is a bag of attribute tokens (brand, category, model
code, colour, size, ...). Sellers list the same product with their own
titles: attributes dropped, reordered, abbreviated or misspelt, plus filler
words. Pairs of offers are labelled match / no-match.
"""
import random

import torch

BRANDS = [f"brand{i}" for i in range(40)]
CATS = ["kettle", "toaster", "blender", "headphones", "mouse", "keyboard", "lamp", "drill",
        "monitor", "charger", "backpack", "sneaker", "jacket", "watch", "speaker", "router"]
COLOURS = ["black", "white", "red", "blue", "silver", "green", "grey", "pink"]
SIZES = ["xs", "s", "m", "l", "xl", "500ml", "1l", "1.5l", "13in", "15in", "27in", "32gb", "64gb"]
FILLER = ["new", "sale", "free", "shipping", "original", "genuine", "best", "deal", "2024",
          "fast", "offer", "official", "hot", "top", "quality"]


def make_catalog(n_products, rng):
    products = []
    for p in range(n_products):
        products.append({
            "brand": rng.choice(BRANDS),
            "cat": rng.choice(CATS),
            "model": f"m{rng.randrange(10000):04d}",
            "colour": rng.choice(COLOURS),
            "size": rng.choice(SIZES),
        })
    return products


def offer_title(prod, rng):
    toks = [prod["brand"], prod["cat"], prod["model"], prod["colour"], prod["size"]]
    toks = [t for t in toks if rng.random() > 0.25] or [prod["model"]]
    if rng.random() < 0.3:
        toks = [t[:-1] if len(t) > 4 and t == prod["model"] else t for t in toks]  # truncated code
    toks += rng.sample(FILLER, rng.randint(0, 4))
    rng.shuffle(toks)
    return toks


class Vocab:
    def __init__(self, size):
        self.size = size

    def encode(self, toks, max_len=12):
        ids = [1 + (hash_token(t) % (self.size - 1)) for t in toks][:max_len]
        return ids + [0] * (max_len - len(ids))


def hash_token(tok):
    h = 2166136261
    for ch in tok.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h


def build_pairs(cfg, vocab, seed, neg_per_pos):
    rng = random.Random(seed)
    catalog = make_catalog(cfg["n_products"], random.Random(cfg["seed"]))
    offers = [[offer_title(p, rng) for _ in range(cfg["offers_per_product"])] for p in catalog]
    by_brand = {}
    for i, p in enumerate(catalog):
        by_brand.setdefault(p["brand"], []).append(i)
    a, b, y = [], [], []
    for i, offs in enumerate(offers):
        for j in range(len(offs) - 1):
            a.append(offs[j]); b.append(offs[j + 1]); y.append(1.0)
            for _ in range(neg_per_pos):
                # hard-ish negatives: same brand when possible
                pool = by_brand[catalog[i]["brand"]]
                k = rng.choice(pool) if len(pool) > 1 and rng.random() < 0.5 else rng.randrange(len(offers))
                if k == i:
                    k = (i + 1) % len(offers)
                a.append(offs[j]); b.append(rng.choice(offers[k])); y.append(0.0)
    A = torch.tensor([vocab.encode(t) for t in a])
    B = torch.tensor([vocab.encode(t) for t in b])
    return A, B, torch.tensor(y)
