import argparse

import numpy as np
import torch
import torch.nn as nn

NORMAL, FAULT = 0, 1


def telemetry(n_normal, n_fault, dim=20, seed=0):
    plant = np.random.default_rng(1234)  # the machine itself: same for every split
    basis = plant.normal(size=(4, dim))
    shift = plant.normal(size=dim)  # a stuck sensor / offset pattern of the faulty windows
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n_normal, 4))
    normal = z @ basis + 0.1 * rng.normal(size=(n_normal, dim))
    zf = rng.normal(size=(n_fault, 4))
    fault = zf @ basis + 1.5 * shift + 0.6 * rng.normal(size=(n_fault, dim))
    X = np.vstack([normal, fault]).astype(np.float32)
    y = np.r_[np.full(n_normal, NORMAL), np.full(n_fault, FAULT)]
    return X, y


class Encoder(nn.Module):
    def __init__(self, dim, rep=8):
        super().__init__()
        # no biases and no bounded activations: avoids the trivial collapsed solution
        self.net = nn.Sequential(nn.Linear(dim, 64, bias=False), nn.LeakyReLU(0.1),
                                 nn.Linear(64, 32, bias=False), nn.LeakyReLU(0.1),
                                 nn.Linear(32, rep, bias=False))

    def forward(self, x):
        return self.net(x)


def auroc(labels, scores):
    """Probability that a random positive scores above a random negative (ties count 1/2)."""
    labels = np.asarray(labels).astype(bool)
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    n_pos, n_neg = labels.sum(), (~labels).sum()
    return (ranks[labels].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, _ = telemetry(3000, 0, seed=1)
    Xte, yte = telemetry(800, 200, seed=2)
    mu, sd = Xtr.mean(0), Xtr.std(0)
    Xtr = torch.from_numpy((Xtr - mu) / sd)
    Xte = torch.from_numpy((Xte - mu) / sd)

    enc = Encoder(Xtr.shape[1])
    with torch.no_grad():
        c = enc(Xtr).mean(0)
        c[(c.abs() < 0.01)] = 0.01  # keep the center away from the origin
    opt = torch.optim.Adam(enc.parameters(), lr=args.lr, weight_decay=1e-6)

    for epoch in range(1, args.epochs + 1):
        perm = torch.randperm(len(Xtr))
        tot = 0.0
        for s in range(0, len(Xtr), 128):
            xb = Xtr[perm[s:s + 128]]
            loss = (enc(xb) - c).pow(2).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        if epoch % 5 == 0:
            with torch.no_grad():
                scores = (enc(Xte) - c).pow(2).sum(1).numpy()
            auc = auroc(yte == NORMAL, scores)
            print(f"epoch {epoch:3d} loss {tot / len(Xtr):.5f} test_auroc {auc:.4f}")
    print(f"test_auroc={auc:.4f}")


if __name__ == "__main__":
    main()
