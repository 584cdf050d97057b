import argparse
import zlib
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

TOPICS = ["true_crime", "comedy", "science", "sports", "business"]
BUCKETS = 1 << 12
VOCAB = {
    0: "murder detective case trial evidence suspect cold victim",
    1: "funny laugh hilarious joke banter silly improv roast",
    2: "physics biology research experiment theory space climate lab",
    3: "league match coach transfer goal playoff season draft",
    4: "market startup investor revenue founder stock economy deal",
}
FILLER = "host episode great listen guest audio long love boring weekly really".split()


def hash_tok(tok):
    return zlib.crc32(tok.encode()) % BUCKETS


def reviews(n, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, len(TOPICS), n)
    X = np.zeros((n, BUCKETS), np.float32)
    for i in range(n):
        words = list(rng.choice(FILLER, 12))
        words += list(rng.choice(VOCAB[y[i]].split(), 3))
        words += list(rng.choice(VOCAB[rng.integers(0, 5)].split(), 1))  # off-topic noise
        for w in words:
            X[i, hash_tok(w)] += 1
    return np.log1p(X), y


class BagClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(BUCKETS, 64), nn.ReLU(), nn.Dropout(0.3))
        self.out = nn.Linear(64, len(TOPICS))

    def forward(self, x):
        return F.log_softmax(self.out(self.body(x)), dim=-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--clip", type=float, default=50.0)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    X, y = map(torch.from_numpy, reviews(2000, 1))
    Xv, yv = map(torch.from_numpy, reviews(500, 2))
    model = BagClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    nll = nn.NLLLoss()
    g = torch.Generator().manual_seed(a.seed)
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(X), generator=g)
        running, norms = 0.0, []
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            loss = nll(model(X[b]), y[b])
            opt.zero_grad()
            loss.backward()
            norms.append(nn.utils.clip_grad_norm_(model.parameters(), a.clip).item())
            opt.step()
            running += loss.item()
        model.eval()
        with torch.no_grad():
            acc = (model(Xv).argmax(-1) == yv).float().mean().item()
        print(f"epoch {ep+1} loss {running / (len(perm) // 64 + 1):.4f} max_grad_norm {max(norms):.2f} val_acc {acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
