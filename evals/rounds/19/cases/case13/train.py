import argparse

import numpy as np
import torch
import torch.nn.functional as F

from model import TraceNet
from radar_sim import simulate


def weighted_bce(logits, target, pos_weight=1.0):
    """BCE on logits with a scalar weight on the crevasse class (they are the rarer, costlier miss)."""
    pw = torch.tensor(pos_weight, dtype=logits.dtype)
    return F.binary_cross_entropy_with_logits(logits, target, pos_weight=pw)


def batches(X, y, bs, rng):
    idx = rng.permutation(len(X))
    for s in range(0, len(X), bs):
        j = idx[s:s + bs]
        yield torch.from_numpy(X[j]), torch.from_numpy(y[j])


@torch.no_grad()
def evaluate(model, X, y):
    model.eval()
    logits = model(torch.from_numpy(X))
    pred = (logits > 0).float()
    t = torch.from_numpy(y)
    acc = (pred == t).float().mean().item()
    recall = (pred[t == 1] == 1).float().mean().item()
    model.train()
    return acc, recall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--bs", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--pos-weight", type=float, default=1.2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    Xtr, ytr = simulate(1500, seed=100 + args.seed)
    Xva, yva = simulate(500, seed=999)

    model = TraceNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    rng = np.random.default_rng(args.seed)
    for epoch in range(args.epochs):
        total, n = 0.0, 0
        for xb, yb in batches(Xtr, ytr, args.bs, rng):
            logits = model(xb)
            loss = weighted_bce(yb, logits, args.pos_weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
            n += len(xb)
        acc, rec = evaluate(model, Xva, yva)
        print(f"epoch {epoch:02d} loss={total / n:.4f} val_acc={acc:.3f} val_recall={rec:.3f}")

    acc, rec = evaluate(model, Xva, yva)
    print(f"val_recall={rec:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
