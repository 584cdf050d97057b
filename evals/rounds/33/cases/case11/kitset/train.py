import argparse

import torch
import torch.nn.functional as F

from .kits import ITEMS, PURPOSES, make_kits
from .model import KitEncoder


def main():
    ap = argparse.ArgumentParser(prog="kitset")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--set-size", type=int, default=12)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    Xtr, ytr = make_kits(3000, args.set_size, seed=5)
    Xva, yva = make_kits(800, args.set_size, seed=6)
    model = KitEncoder(len(ITEMS) + 2, n_out=len(PURPOSES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            loss = F.cross_entropy(model(Xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(Xva).argmax(-1) == yva).float().mean().item()
        print(f"epoch {epoch:02d} loss={loss.item():.3f} val_acc={acc:.3f}")
    print(f"final val_acc={acc:.4f}")
