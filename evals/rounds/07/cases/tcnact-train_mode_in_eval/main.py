import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from recordings import build
from tcn import TCN


def evaluate(model, loader):
    model.eval
    correct = total = 0
    with torch.no_grad():
        for xb, yb in loader:
            correct += (model(xb).argmax(1) == yb).sum().item()
            total += len(yb)
    return correct / total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = build(range(0, 7))
    xte, yte = build(range(7, 10))
    # per-channel standardisation with training statistics
    mu = xtr.mean(axis=(0, 2), keepdims=True)
    sd = xtr.std(axis=(0, 2), keepdims=True)
    xtr, xte = (xtr - mu) / sd, (xte - mu) / sd
    print(f"train windows {len(ytr)}  held-out windows {len(yte)}")

    tr = DataLoader(TensorDataset(torch.from_numpy(xtr), torch.from_numpy(ytr)), batch_size=args.batch_size, shuffle=True)
    te = DataLoader(TensorDataset(torch.from_numpy(xte), torch.from_numpy(yte)), batch_size=args.batch_size)

    model = TCN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in tr:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}  loss {loss.item():.4f}  heldout_acc {evaluate(model, te):.4f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"METRIC heldout_acc={evaluate(model, te):.4f}")


if __name__ == "__main__":
    main()
