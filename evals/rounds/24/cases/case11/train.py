import argparse

import numpy as np
import torch
import torch.nn as nn

from losses import focal_loss
from radiographs import render


class PatchNet(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(c, 2 * c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(2 * c, 2 * c, 3, padding=1), nn.ReLU(),
            nn.AdaptiveMaxPool2d(1), nn.Flatten(), nn.Linear(2 * c, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def average_precision(scores, labels):
    order = np.argsort(-scores)
    l = labels[order]
    hits = np.cumsum(l)
    prec = hits / np.arange(1, len(l) + 1)
    return float((prec * l).sum() / max(l.sum(), 1))


def f1_at(scores, labels, threshold=0.0):
    pred = scores > threshold
    tp = (pred & (labels == 1)).sum()
    fp = (pred & (labels == 0)).sum()
    fn = (~pred & (labels == 1)).sum()
    return float(2 * tp / max(2 * tp + fp + fn, 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, y = render(3000, seed=args.seed)
    Xv, yv = render(800, seed=args.seed + 100)
    mean, std = X.mean(), X.std()
    X = torch.from_numpy((X - mean) / std).unsqueeze(1)
    Xv = torch.from_numpy((Xv - mean) / std).unsqueeze(1)
    y = torch.from_numpy(y)

    model = PatchNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(y))
        tot = 0.0
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            opt.zero_grad()
            loss = focal_loss(model(X[b]), y[b])
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        model.eval()
        with torch.no_grad():
            scores = model(Xv).numpy()
        graded = yv >= 0
        ap_val = average_precision(scores[graded], yv[graded])
        f1 = f1_at(scores[graded], yv[graded])
        print(f"epoch {epoch + 1} focal={tot / len(perm):.4f} val_ap={ap_val:.3f} val_f1={f1:.3f}")
    print(f"val_ap={ap_val:.4f}")
    print(f"val_f1={f1:.4f}")


if __name__ == "__main__":
    main()
