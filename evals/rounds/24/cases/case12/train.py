import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from utils import inference, accuracy


class PoreNet(nn.Module):
    def __init__(self, c=8, n_classes=3):
        super().__init__()
        def block(i, o):
            return nn.Sequential(nn.Conv3d(i, o, 3, padding=1), nn.BatchNorm3d(o), nn.ReLU(), nn.MaxPool3d(2))
        self.features = nn.Sequential(block(1, c), block(c, 2 * c), block(2 * c, 2 * c))
        self.head = nn.Linear(2 * c, n_classes)

    def forward(self, x):
        return self.head(self.features(x).mean(dim=(2, 3, 4)))


def evaluate(model, X, y, batch_size):
    correct = 0
    with inference(model):
        for i in range(0, len(X), batch_size):
            logits = model(X[i:i + batch_size])
            correct += accuracy(logits, y[i:i + batch_size]) * len(logits)
    return correct / len(X)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    tr, va = np.load("crops/train.npz"), np.load("crops/val.npz")
    Xtr, ytr = torch.from_numpy(tr["X"]).unsqueeze(1), torch.from_numpy(tr["y"])
    Xva, yva = torch.from_numpy(va["X"]).unsqueeze(1), torch.from_numpy(va["y"])

    model = PoreNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            opt.zero_grad()
            loss = F.cross_entropy(model(Xtr[b]), ytr[b])
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        print(f"epoch {epoch + 1} loss={tot / len(Xtr):.4f} val_acc={evaluate(model, Xva, yva, args.batch_size):.3f}")

    print(f"val_acc={evaluate(model, Xva, yva, args.batch_size):.4f}")


if __name__ == "__main__":
    main()
