import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from corpus import ALPHABET, make_pairs


class Scorer(nn.Module):
    def __init__(self, emb=16, width=64):
        super().__init__()
        self.emb = nn.Embedding(ALPHABET, emb)
        self.conv = nn.Conv1d(emb, width, kernel_size=2)
        self.out = nn.Linear(width, 1)

    def forward(self, tokens):
        h = self.emb(tokens).transpose(1, 2)
        h = torch.relu(self.conv(h))          # bigram detectors
        return self.out(h.mean(dim=2)).squeeze(-1)


def auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def batches(X, y, batch_size, rng):
    while True:
        idx = rng.permutation(len(X))
        for i in range(0, len(idx) - batch_size + 1, batch_size):
            j = idx[i:i + batch_size]
            yield torch.from_numpy(X[j]), torch.from_numpy(y[j])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--snippet", type=int, default=60)
    ap.add_argument("--log-every", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr = make_pairs(6000, args.snippet, seed=args.seed)
    Xva, yva = make_pairs(1000, args.snippet, seed=args.seed + 1000)
    model = Scorer()
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    stream = batches(Xtr, ytr, args.batch_size, np.random.default_rng(args.seed))

    running = 0.0
    for step in range(1, args.steps + 1):
        xb, yb = next(stream)
        model.train()
        loss = F.binary_cross_entropy_with_logits(model(xb), yb)
        loss.backward()
        opt.step()
        running += loss.item()
        if step % args.log_every == 0:
            model.eval()
            with torch.no_grad():
                s = model(torch.from_numpy(Xva)).numpy()
            print(f"step {step} loss={running / args.log_every:.4f} val_auc={auc(s, yva):.4f}")
            running = 0.0
            opt.zero_grad()

    model.eval()
    with torch.no_grad():
        s = model(torch.from_numpy(Xva)).numpy()
    print(f"val_auc={auc(s, yva):.4f}")


if __name__ == "__main__":
    main()
