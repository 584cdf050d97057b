import argparse
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from batches import N_LEVELS, roast_logs


def encode_targets(level):
    """Level 1..5 -> four binary targets [level > 1, level > 2, level > 3, level > 4]."""
    k = torch.arange(1, N_LEVELS)
    return (level[:, None] > k[None, :]).float()


def decode(logits):
    """Number of fired thresholds, 0..4."""
    return (logits > 0).sum(dim=1)


class OrdinalMLP(nn.Module):
    def __init__(self, d_in, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.thresholds = nn.Linear(hidden, N_LEVELS - 1)

    def forward(self, x):
        return self.thresholds(self.body(x))


def evaluate(model, x, level):
    model.eval()
    with torch.no_grad():
        pred = decode(model(x))
    model.train()
    acc = (pred == level).float().mean().item()
    mae = (pred - level).abs().float().mean().item()
    return acc, mae


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    t0 = time.time()

    xtr, ltr = roast_logs(3000, seed=1)
    xva, lva = roast_logs(800, seed=2)
    mu, sd = xtr.mean(0), xtr.std(0)
    xtr, xva = (xtr - mu) / sd, (xva - mu) / sd
    ttr = encode_targets(ltr)

    model = OrdinalMLP(xtr.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(ltr))
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i : i + args.batch_size]
            loss = F.binary_cross_entropy_with_logits(model(xtr[idx]), ttr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 10 == 0 or epoch == args.epochs - 1:
            acc, mae = evaluate(model, xva, lva)
            print(f"epoch {epoch:2d} loss {loss.item():.4f} val_acc {acc:.4f} val_mae {mae:.3f}")

    print(f"{time.time() - t0:.1f}s")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
