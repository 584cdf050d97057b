import argparse

import torch
import torch.nn.functional as F

from parts import SHAPES, sample_sets
from router import RoutingClassifier


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ytr = sample_sets(2400, seed=args.seed)
    Xva, yva = sample_sets(600, seed=args.seed + 7)
    model = RoutingClassifier(Xtr.shape[-1], len(SHAPES), iters=args.iters)
    model(Xtr[:2])            # build lazily-shaped parts before handing params to the optimizer
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 64):
            idx = perm[i:i + 64]
            loss = F.cross_entropy(model(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(Xva).argmax(-1) == yva).float().mean().item()
        print(f"epoch {epoch + 1:2d} loss {loss.item():.4f} val_acc {acc:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
