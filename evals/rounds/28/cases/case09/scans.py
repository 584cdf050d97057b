import random
import zlib

import torch
from torch.utils.data import Dataset

CATEGORIES = ["dairy", "bakery", "produce", "frozen", "snacks", "drinks", "household", "pet"]


def check_digit(d12):
    s = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(d12))
    return str((10 - s % 10) % 10)


def build_catalog(rng):
    """Company prefixes per category (brands) + store-brand item blocks."""
    companies = {}
    for cat in range(len(CATEGORIES)):
        for _ in range(12):
            country = rng.choice(["400", "500", "760", "871", "301"])
            companies[country + f"{rng.randrange(10000):04d}"] = cat
    return companies


def make_scans(n, seed):
    rng = random.Random(1234)
    companies = build_catalog(rng)
    prefixes = sorted(companies)
    rng = random.Random(seed)
    scans = []
    for _ in range(n):
        if rng.random() < 0.2:
            cat = rng.randrange(len(CATEGORIES))
            d12 = f"2{rng.randrange(10)}{cat}{rng.randrange(10)}" + f"{rng.randrange(10 ** 8):08d}"
        else:
            p = rng.choice(prefixes)
            cat = companies[p]
            d12 = p + f"{rng.randrange(10 ** 5):05d}"
        scans.append((d12 + check_digit(d12), cat))
    return scans


def pieces(code):
    return ["cc:" + code[:3], "co:" + code[:7], "sb:" + code[:3] if code[0] == "2" else "nb",
            "it:" + code[7:9], "ck:" + code[-1]]


class ScanDataset(Dataset):
    def __init__(self, scans, n_buckets):
        self.scans = scans
        self.n_buckets = n_buckets

    def __len__(self):
        return len(self.scans)

    def __getitem__(self, i):
        code, cat = self.scans[i]
        ids = [zlib.crc32(p.encode()) % self.n_buckets for p in pieces(code)]
        return torch.tensor(ids), cat
