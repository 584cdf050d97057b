import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from .imu import make_split
from .model import SpinNet


def accuracy(model, X, y):
    model.eval()
    with torch.no_grad():
        return (model(X).argmax(dim=1) == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, y = make_split(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(y))
    n_val = len(y) // 5
    va, tr = order[:n_val], order[n_val:]
    Xtr, ytr = torch.from_numpy(X[tr]), torch.from_numpy(y[tr])
    Xva, yva = torch.from_numpy(X[va]), torch.from_numpy(y[va])

    loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=32, shuffle=True)
    model = SpinNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        model.train()
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
        print(f"epoch {epoch + 1} loss={loss.item():.3f} val_acc={accuracy(model, Xva, yva):.3f}")
    print(f"val_acc={accuracy(model, Xva, yva):.4f}")


if __name__ == "__main__":
    main()
