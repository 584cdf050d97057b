import argparse
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import MorphNet
from render import CLASSES, make_catalog


def augment(x):
    # orientation on the sky is arbitrary: random quarter turns and flips
    k = int(torch.randint(0, 4, (1,)))
    x = torch.rot90(x, k, dims=(2, 3))
    if torch.rand(1).item() < 0.5:
        x = torch.flip(x, dims=(3,))
    return x


def nll_from_proba(proba, y, eps=1e-8):
    return -torch.log(proba.gather(1, y[:, None]) + eps).mean()


def evaluate(model, loader):
    model.eval()
    correct = total = 0
    for xb, yb in loader:
        pred = model.predict(xb)
        correct += (pred == yb).sum().item()
        total += len(yb)
    model.train()
    return correct / total


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--n-train", type=int, default=2400)
    p.add_argument("--n-val", type=int, default=800)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    torch.manual_seed(args.seed)
    xtr, ytr = make_catalog(args.n_train, seed=args.seed)
    xva, yva = make_catalog(args.n_val, seed=args.seed + 1000)
    print(f"train {xtr.shape} val {xva.shape} classes={CLASSES}")

    train_loader = DataLoader(TensorDataset(torch.from_numpy(xtr), torch.from_numpy(ytr)),
                              batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(TensorDataset(torch.from_numpy(xva), torch.from_numpy(yva)),
                            batch_size=256)

    model = MorphNet(n_classes=len(CLASSES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    t0 = time.time()
    for epoch in range(args.epochs):
        running = 0.0
        for xb, yb in train_loader:
            xb = augment(xb)
            loss = nll_from_proba(model.predict_proba(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item() * len(yb)
        acc = evaluate(model, val_loader)
        print(f"epoch {epoch + 1:2d} loss {running / len(ytr):.4f} val_acc {acc:.3f} ({time.time() - t0:.1f}s)")

    print(f"val_acc={evaluate(model, val_loader):.4f}")


if __name__ == "__main__":
    main()
