import argparse
import random
import re
import zlib

import torch
import torch.nn as nn
import torch.nn.functional as F

from listings import CATEGORIES, FILLER, make_sheet

N_BUCKETS = 2048
_STOP = set(FILLER)


def clean(text):
    toks = re.findall(r"[a-z]+", text.lower())
    return " ".join(t for t in toks if t not in _STOP)


def hash_features(text):
    toks = text.split()
    grams = toks + [a + "_" + b for a, b in zip(toks, toks[1:])]
    vec = torch.zeros(N_BUCKETS)
    for g in grams:
        vec[zlib.crc32(g.encode()) % N_BUCKETS] += 1.0
    return torch.log1p(vec)


def prepare(texts, labels):
    """Clean the free text and drop boxes that end up empty."""
    texts = [clean(t) for t in texts]
    texts = [t for t in texts if t]
    x = torch.stack([hash_features(t) for t in texts])
    y = torch.tensor([lab for _, lab in zip(texts, labels)])
    return x, y


class StallMLP(nn.Module):
    def __init__(self, n_in, hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, hidden)
        self.drop = nn.Dropout(0.2)
        self.fc2 = nn.Linear(hidden, n_out)

    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.fc1(x))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    random.seed(args.seed)
    torch.manual_seed(args.seed)

    texts, labels = make_sheet(seed=args.seed)
    x, y = prepare(texts, labels)
    perm = torch.randperm(len(y))
    n_val = len(y) // 5
    va, tr = perm[:n_val], perm[n_val:]
    print(f"{len(texts)} listings, {len(y)} usable, {len(CATEGORIES)} categories")

    model = StallMLP(N_BUCKETS, 128, len(CATEGORIES))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)

    for epoch in range(args.epochs):
        model.train()
        order = tr[torch.randperm(len(tr))]
        tot = 0.0
        for i in range(0, len(order), args.batch_size):
            idx = order[i:i + args.batch_size]
            loss = F.cross_entropy(model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            acc = (model(x[va]).argmax(-1) == y[va]).float().mean().item()
        print(f"epoch {epoch:2d} loss {tot / len(tr):.4f} val_acc {acc:.3f}")

    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
