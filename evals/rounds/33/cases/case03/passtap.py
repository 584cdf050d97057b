#!/usr/bin/env python
"""Hashed museum-pass tap classifier."""
import argparse
import random
import zlib

import torch
import torch.nn as nn

PASS_TYPES = ["day", "annual", "student", "family", "staff", "school"]
GATES = ["north", "south", "east", "cafe", "shop", "wing_a", "wing_b", "planet", "staff_door"]

# typical behaviour per pass type: preferred gates, hours, weekdays
PROFILE = {
    "day": (["north", "south", "wing_a", "shop"], range(10, 16), range(0, 7)),
    "annual": (["east", "wing_b", "cafe"], range(9, 19), range(0, 7)),
    "student": (["south", "wing_a", "cafe"], range(13, 19), range(0, 5)),
    "family": (["north", "planet", "shop", "cafe"], range(10, 15), range(5, 7)),
    "staff": (["staff_door", "east"], range(7, 10), range(0, 5)),
    "school": (["south", "planet", "wing_b"], range(9, 13), range(1, 5)),
}


def sample_visit(r, kind):
    gates, hours, days = PROFILE[kind]
    toks = []
    day = r.choice(list(days)) if r.random() < 0.7 else r.randrange(7)
    for _ in range(r.randint(2, 6)):
        g = r.choice(gates) if r.random() < 0.6 else r.choice(GATES)
        h = r.choice(list(hours)) if r.random() < 0.6 else r.randrange(7, 20)
        toks += [f"gate={g}", f"hour={h}", f"dow={day}", f"gh={g}:{h}"]
    return toks


def hash_tokens(toks, buckets):
    v = torch.zeros(buckets)
    for t in toks:
        v[zlib.crc32(t.encode()) % buckets] += 1.0
    return v / max(len(toks), 1) ** 0.5


def make_split(n, buckets, seed):
    r = random.Random(seed)
    X, y = [], []
    for _ in range(n):
        k = r.randrange(len(PASS_TYPES))
        X.append(hash_tokens(sample_visit(r, PASS_TYPES[k]), buckets))
        y.append(k)
    return torch.stack(X), torch.tensor(y)


class PassClassifier(nn.Module):
    def __init__(self, buckets, hidden, n_cls):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(buckets, hidden), nn.ReLU(), nn.Dropout(0.1))
        self.head = nn.Linear(hidden, n_cls)

    def forward(self, x):
        return self.predict_proba(x)

    def predict_proba(self, x):
        # the kiosk dashboard consumes class probabilities directly
        return torch.softmax(self.head(self.body(x)), dim=-1)


def cmd_train(a):
    torch.manual_seed(a.seed)
    Xtr, ytr = make_split(4000, a.buckets, seed=100)
    Xva, yva = make_split(1000, a.buckets, seed=200)
    model = PassClassifier(a.buckets, a.hidden, len(PASS_TYPES))
    opt = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9)
    crit = nn.CrossEntropyLoss()
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        tot = 0.0
        for i in range(0, len(perm), a.bs):
            b = perm[i:i + a.bs]
            out = model(Xtr[b])
            loss = crit(out, ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            acc = (model(Xva).argmax(1) == yva).float().mean().item()
        print(f"ep={ep} train_loss={tot / len(Xtr):.4f} val_acc={acc:.4f}")
    print(f"val_acc={acc:.4f}")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("--buckets", type=int, default=512)
    t.add_argument("--hidden", type=int, default=64)
    t.add_argument("--epochs", type=int, default=6)
    t.add_argument("--bs", type=int, default=64)
    t.add_argument("--lr", type=float, default=0.05)
    t.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    if a.cmd == "train":
        cmd_train(a)


if __name__ == "__main__":
    main()
