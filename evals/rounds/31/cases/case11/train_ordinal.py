import argparse

import numpy as np
import torch
import torch.nn as nn

K = 4


def synth_legs(n, rng):
    leg = rng.uniform(0.2, 2.5, n)
    climb = rng.uniform(0, 120, n) / 100
    vis = rng.uniform(0, 1, n)
    rating = rng.normal(0, 1, n)
    fatigue = rng.uniform(0, 1, n)
    latent = 1.5 * rating + 2.0 * vis - 0.8 * leg - 0.6 * climb - 1.0 * fatigue + rng.logistic(0, 0.3, n)
    y = np.digitize(latent, [-1.5, -0.3, 0.9])
    X = np.stack([leg, climb, vis, rating, fatigue], 1).astype(np.float32)
    return X, y.astype(np.int64)


class CumulativeLink(nn.Module):
    def __init__(self, d_in, hidden=32):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.cuts = nn.Parameter(torch.linspace(-1, 1, K - 1))

    def forward(self, x):
        s = self.score(x)
        cuts = torch.cumsum(torch.cat([self.cuts[:1], nn.functional.softplus(self.cuts[1:])]), 0)
        return cuts[None] - s  # logits of P(y <= k)


def ordinal_nll(logits, y):
    cdf = torch.sigmoid(logits)
    cdf = torch.cat([torch.zeros_like(cdf[:, :1]), cdf, torch.ones_like(cdf[:, :1])], 1)
    probs = (cdf[:, 1:] - cdf[:, :-1]).clamp_min(1e-6)
    return -probs.gather(1, y[:, None]).log().mean()


def predict(logits):
    return (torch.sigmoid(logits) < 0.5).sum(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--lr", type=float, default=1e-2)
    ap.add_argument("--bs", type=int, default=50)
    ap.add_argument("--log-every", type=int, default=10)
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    Xtr, ytr = map(torch.tensor, synth_legs(2000, rng))
    Xva, yva = map(torch.tensor, synth_legs(600, rng))
    model = CumulativeLink(5)
    opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    step = 0
    for ep in range(args.epochs):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(Xtr), args.bs):
            idx = perm[i:i + args.bs]
            loss = ordinal_nll(model(Xtr[idx]), ytr[idx])
            loss.backward()
            opt.step()
            if step % args.log_every == 0:
                opt.zero_grad()
                running = loss.item()
            step += 1
        with torch.no_grad():
            acc = (predict(model(Xva)) == yva).float().mean().item()
        print(f"epoch {ep} loss {running:.4f} val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
