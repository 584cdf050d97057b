import argparse

import numpy as np
import torch
import torch.nn.functional as F

from .metrics import topk_accuracy
from .model import StrokeSetEncoder
from .sessions import FEATURES, N_USERS, simulate


def standardise(train, *others):
    flat = train.reshape(-1, train.shape[-1])
    mu, sd = flat.mean(0), flat.std(0) + 1e-6
    return [torch.from_numpy((a - mu) / sd) for a in (train, *others)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = simulate(1500, seed=1)
    xva, yva = simulate(500, seed=2)
    xtr, xva = standardise(np.log1p(np.abs(xtr)) * np.sign(xtr), np.log1p(np.abs(xva)) * np.sign(xva))
    ytr, yva = torch.from_numpy(ytr), torch.from_numpy(yva)

    model = StrokeSetEncoder(len(FEATURES), N_USERS)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        for s in range(0, len(xtr), args.batch_size):
            idx = perm[s:s + args.batch_size]
            loss = F.cross_entropy(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            top1, top3 = topk_accuracy(model(xva), yva, topk=(1, 3))
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1:3d}  loss {loss.item():.4f}  val_top1 {top1:.3f}  val_top3 {top3:.3f}")
    print(f"val_top1={top1:.4f}")


if __name__ == "__main__":
    main()
