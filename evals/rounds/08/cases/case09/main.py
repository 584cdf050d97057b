import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F

from model import PolarNet
from shapes import CLASSES, make_split


def augment(prof, gen):
    """Random rotation (circular roll of the profile) and mild radius jitter."""
    B, n = prof.shape
    shifts = torch.randint(0, n, (B,), generator=gen)
    idx = (torch.arange(n)[None, :] - shifts[:, None]) % n
    out = prof.gather(1, idx)
    return out * (1 + 0.03 * torch.randn(B, 1, generator=gen))


def evaluate(model, X, y, bs, mc_samples):
    model.eval()
    correct = 0
    for i in range(0, len(y), bs):
        probs = model.predict(X[i:i + bs], mc_samples=mc_samples)
        correct += (probs.argmax(1) == y[i:i + bs]).sum().item()
    return correct / len(y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--bs", type=int, default=64)
    ap.add_argument("--eval-bs", type=int, default=100)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--mc-samples", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)

    Xtr, ytr = map(torch.from_numpy, make_split(300, 96, seed=10))
    Xte, yte = map(torch.from_numpy, make_split(150, 96, seed=20))
    model = PolarNet(len(CLASSES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)

    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        model.train()
        perm = torch.randperm(len(ytr), generator=gen)
        tot = 0.0
        for i in range(0, len(perm), args.bs):
            b = perm[i:i + args.bs]
            loss = F.cross_entropy(model(augment(Xtr[b], gen)), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        sched.step()
        acc = evaluate(model, Xte, yte, args.eval_bs, args.mc_samples)
        print(f"epoch {epoch:2d} loss {tot / len(perm):.4f} test_acc {acc:.4f} ({time.time() - t0:.1f}s)")
    print(f"test_acc={acc:.4f}")


if __name__ == "__main__":
    main()
