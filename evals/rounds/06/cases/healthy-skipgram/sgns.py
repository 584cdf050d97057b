import argparse
import collections
import random

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def load(path):
    sents = [line.split() for line in open(path)]
    counts = collections.Counter(w for s in sents for w in s)
    itos = [w for w, _ in counts.most_common()]
    stoi = {w: i for i, w in enumerate(itos)}
    freq = np.array([counts[w] for w in itos], dtype=np.float64)
    return [[stoi[w] for w in s] for s in sents], itos, freq


def make_pairs(sents, freq, window, rnd, t=1e-3):
    """(center, context) pairs after Mikolov subsampling of frequent words."""
    f = freq / freq.sum()
    keep_p = np.minimum(1.0, np.sqrt(t / f) + t / f)
    pairs = []
    for s in sents:
        s = [w for w in s if rnd.random() < keep_p[w]]
        for i, c in enumerate(s):
            b = rnd.randint(1, window)
            for j in range(max(0, i - b), min(len(s), i + b + 1)):
                if j != i:
                    pairs.append((c, s[j]))
    return torch.tensor(pairs)


class SkipGram(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.in_emb = nn.Embedding(vocab_size, dim)
        self.out_emb = nn.Embedding(vocab_size, dim)
        nn.init.uniform_(self.in_emb.weight, -0.5 / dim, 0.5 / dim)
        self.out_emb.weight.data.zero_()  # as in the original word2vec.c

    def forward(self, center, context, negatives):
        v = self.in_emb(center)                     # (B, D)
        u_pos = self.out_emb(context)               # (B, D)
        u_neg = self.out_emb(negatives)             # (B, K, D)
        pos = F.logsigmoid((v * u_pos).sum(-1))
        neg = F.logsigmoid(-torch.bmm(u_neg, v.unsqueeze(-1)).squeeze(-1)).sum(-1)
        return -(pos + neg).mean()


def topic_nn_accuracy(emb, itos):
    content = [i for i, w in enumerate(itos) if w.startswith("t")]
    e = F.normalize(emb[content], dim=1)
    sim = e @ e.t()
    sim.fill_diagonal_(-2.0)
    nn_idx = sim.argmax(dim=1)
    topic = torch.tensor([int(itos[i][1:3]) for i in content])
    return (topic[nn_idx] == topic).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default="corpus.txt")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--dim", type=int, default=32)
    ap.add_argument("--window", type=int, default=3)
    ap.add_argument("--negatives", type=int, default=5)
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    torch.manual_seed(args.seed)

    sents, itos, freq = load(args.corpus)
    noise = torch.tensor(freq ** 0.75)
    noise /= noise.sum()
    model = SkipGram(len(itos), args.dim)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(1, args.epochs + 1):
        pairs = make_pairs(sents, freq, args.window, rnd)
        pairs = pairs[torch.randperm(len(pairs))]
        tot = 0.0
        for i in range(0, len(pairs), args.batch_size):
            b = pairs[i:i + args.batch_size]
            negs = torch.multinomial(noise, len(b) * args.negatives, replacement=True).view(len(b), -1)
            loss = model(b[:, 0], b[:, 1], negs)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        with torch.no_grad():
            acc = topic_nn_accuracy(model.in_emb.weight, itos)
        print(f"epoch {epoch}: loss={tot / len(pairs):.4f} pairs={len(pairs)} nn_topic_acc={acc:.4f}")

    print(f"nn_topic_acc={topic_nn_accuracy(model.in_emb.weight.detach(), itos):.4f}")


if __name__ == "__main__":
    main()
