#!/usr/bin/env python
"""Feed-forward n-gram LM with a mixture-of-softmaxes head."""
import argparse
import math
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

# ---------------------------------------------------------------- corpus


def markov_corpus(vocab, n_tokens, branching, seed):
    """Second-order source: each (a, b) context allows only `branching` next tokens."""
    rng = np.random.default_rng(seed)
    succ = rng.integers(0, vocab, size=(vocab, vocab, branching))
    probs = rng.dirichlet(np.full(branching, 0.7), size=(vocab, vocab))
    out = np.empty(n_tokens, dtype=np.int64)
    out[0], out[1] = rng.integers(0, vocab, 2)
    u = rng.random(n_tokens)
    for t in range(2, n_tokens):
        a, b = out[t - 2], out[t - 1]
        k = np.searchsorted(np.cumsum(probs[a, b]), u[t])
        out[t] = succ[a, b, min(k, branching - 1)]
    return out


def ngrams(stream, order):
    idx = np.arange(order)[None, :] + np.arange(len(stream) - order)[:, None]
    return torch.from_numpy(stream[idx]), torch.from_numpy(stream[order:])

# ---------------------------------------------------------------- model


class MixtureOfSoftmaxes(nn.Module):
    """log p(y|h) = log sum_k pi_k(h) softmax(W_k h)_y"""

    def __init__(self, d_model, vocab, n_mix):
        super().__init__()
        self.n_mix = n_mix
        self.vocab = vocab
        self.prior = nn.Linear(d_model, n_mix)
        self.latent = nn.Linear(d_model, n_mix * d_model)
        self.decoder = nn.Linear(d_model, vocab)

    def forward(self, h):  # h: [N, d]
        N, d = h.shape
        # component-major layout: [K, N, ...]
        z = torch.tanh(self.latent(h)).view(N, self.n_mix, d).transpose(0, 1)
        log_comp = F.log_softmax(self.decoder(z), dim=-1)          # [K, N, V]
        log_pi = F.log_softmax(self.prior(h).t(), dim=-1)          # [K, N]
        return torch.logsumexp(log_pi.unsqueeze(-1) + log_comp, dim=0)  # [N, V]


class NGramLM(nn.Module):
    def __init__(self, vocab, order, emb=32, hidden=128, n_mix=4, dropout=0.1):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.mlp = nn.Sequential(nn.Linear(order * emb, hidden), nn.Tanh(), nn.Dropout(dropout))
        self.head = MixtureOfSoftmaxes(hidden, vocab, n_mix)

    def forward(self, ctx):
        return self.head(self.mlp(self.emb(ctx).flatten(1)))

# ---------------------------------------------------------------- loop


@torch.no_grad()
def perplexity(model, X, Y, bs=1024):
    model.eval()
    nll = 0.0
    for i in range(0, len(Y), bs):
        logp = model(X[i:i + bs])
        nll += F.nll_loss(logp, Y[i:i + bs], reduction="sum").item()
    return math.exp(nll / len(Y))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--vocab", type=int, default=48)
    ap.add_argument("--tokens", type=int, default=120_000)
    ap.add_argument("--order", type=int, default=3)
    ap.add_argument("--mixtures", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    stream = markov_corpus(args.vocab, args.tokens, branching=4, seed=11)
    cut = int(0.9 * len(stream))
    Xtr, Ytr = ngrams(stream[:cut], args.order)
    Xva, Yva = ngrams(stream[cut:], args.order)

    model = NGramLM(args.vocab, args.order, n_mix=args.mixtures)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for ep in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Ytr))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            loss = F.nll_loss(model(Xtr[b]), Ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        print(f"epoch {ep}  train_nll {tot / len(Ytr):.3f}  val_ppl {perplexity(model, Xva, Yva):.3f}")
    print(f"time {time.time() - t0:.1f}s")
    print(f"METRIC val_ppl={perplexity(model, Xva, Yva):.4f}")


if __name__ == "__main__":
    main()
