import argparse
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from simulate import hawkes_exp


class IntensityGRU(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.gru = nn.GRU(1, hidden, batch_first=True)
        self.params = nn.Linear(hidden, 3)

    def forward(self, gaps, h0=None):
        # input: log of the gap that ended at each event
        out, h = self.gru(torch.log(gaps + 1e-6).unsqueeze(-1), h0)
        mu, alpha, beta = F.softplus(self.params(out)).unbind(-1)
        return mu + 1e-4, alpha, beta + 1e-2, h


def nll(mu, alpha, beta, next_gap):
    """-log lambda(t_{j+1}) + integral_{t_j}^{t_{j+1}} lambda, summed over events."""
    lam = mu + alpha * torch.exp(-beta * next_gap)
    compensator = mu * next_gap + alpha / beta * (1 - torch.exp(-beta * next_gap))
    loglik = torch.log(lam) - compensator
    return -loglik.sum()


def windows(gaps, n_streams, win):
    """Cut the stream into n_streams parallel substreams, then into windows of `win` steps."""
    L = (len(gaps) - 1) // n_streams
    g = gaps[:L * n_streams + 1]
    xs = torch.stack([g[i * L:(i + 1) * L] for i in range(n_streams)])
    ys = torch.stack([g[i * L + 1:(i + 1) * L + 1] for i in range(n_streams)])
    for s in range(0, L, win):
        yield xs[:, s:s + win], ys[:, s:s + win]


def evaluate(model, gaps):
    model.eval()
    total, n, h = 0.0, 0, None
    with torch.no_grad():
        for x, y in windows(gaps, 1, 256):
            mu, alpha, beta, h = model(x, h)
            total += nll(mu, alpha, beta, y).item()
            n += y.numel()
    model.train()
    return total / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--streams", type=int, default=16)
    ap.add_argument("--bptt", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train = torch.from_numpy(hawkes_exp(40000, seed=1))
    val = torch.from_numpy(hawkes_exp(8000, seed=2))
    rate = 1.0 / train.mean().item()
    poisson = -(math.log(rate) - rate * val.mean().item())
    print(f"poisson_nll_per_event={poisson:.4f}")

    model = IntensityGRU()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(1, args.epochs + 1):
        h, tot, n = None, 0.0, 0
        for x, y in windows(train, args.streams, args.bptt):
            if h is not None:
                h = h.detach()  # truncated BPTT: keep the state, drop the old graph
            mu, alpha, beta, h = model(x, h)
            loss = nll(mu, alpha, beta, y) / y.numel()
            opt.zero_grad()
            loss.backward()
            gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=50.0)
            opt.step()
            tot += loss.item() * y.numel()
            n += y.numel()
        print(f"epoch {epoch}: train_nll={tot / n:.4f} last_grad_norm={gnorm.item():.3f} "
              f"val_nll={evaluate(model, val):.4f}")

    print(f"val_nll_per_event={evaluate(model, val):.4f}")


if __name__ == "__main__":
    main()
