import argparse
import copy
import os

import numpy as np
import torch
import torch.nn.functional as F

from net import HailNet
from voxels import make_scans


def accuracy(model, x, y, bs=64):
    model.eval()
    hits = 0
    with torch.no_grad():
        for i in range(0, len(x), bs):
            hits += (model(x[i:i + bs]).argmax(1) == y[i:i + bs]).sum().item()
    return hits / len(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="artifacts")
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = map(torch.from_numpy, make_scans(300, args.seed))
    xva, yva = map(torch.from_numpy, make_scans(60, args.seed + 1))
    xte, yte = make_scans(100, args.seed + 2)

    model = HailNet()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    best, best_state = -1.0, None
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ytr))
        for i in range(0, len(perm), 32):
            j = perm[i:i + 32]
            loss = F.cross_entropy(model(xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = accuracy(model, xva, yva)
        print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.3f}")
        if acc > best:
            best, best_state = acc, copy.deepcopy(model.state_dict())

    os.makedirs(args.out, exist_ok=True)
    torch.save(best_state, os.path.join(args.out, "hailnet.pt"))
    np.savez_compressed(os.path.join(args.out, "test_scans.npz"), x=xte, y=yte)
    print(f"best val_acc={best:.4f}")


if __name__ == "__main__":
    main()
