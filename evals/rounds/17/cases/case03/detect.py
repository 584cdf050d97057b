import argparse

import torch
import torch.nn.functional as F
from torch import nn

from xray import render


class PoreNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
        )
        self.classifier = nn.Linear(32, 1)

    def forward(self, x):
        h = self.features(x)
        return self.classifier(h.amax(dim=(2, 3))).squeeze(-1)   # logits


def focal_bce(logits, target, gamma=2.0, alpha=0.75):
    bce = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
    p = torch.sigmoid(logits).detach()
    p_t = p * target + (1 - p) * (1 - target)
    alpha_t = alpha * target + (1 - alpha) * (1 - target)
    return (alpha_t * (1 - p_t) ** gamma * bce).mean()


def f1_at_half(model, X, y):
    model.eval()
    with torch.no_grad():
        prob = torch.sigmoid(model(X))
    pred = (prob >= 0.5).float()
    tp = (pred * y).sum().item()
    fp = (pred * (1 - y)).sum().item()
    fn = ((1 - pred) * y).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--patches", type=int, default=3000)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--clip", type=float, default=5.0)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, y = render(args.patches, seed=args.seed)
    X = (X - X.mean()) / X.std()
    X, y = torch.from_numpy(X), torch.from_numpy(y)
    nv = len(X) // 5
    Xtr, ytr, Xva, yva = X[nv:], y[nv:], X[:nv], y[:nv]

    model = PoreNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        total, max_norm = 0.0, 0.0
        for i in range(0, len(perm), 32):
            idx = perm[i:i + 32]
            opt.zero_grad()
            loss = focal_bce(model(Xtr[idx]), ytr[idx])
            loss.backward()
            gn = nn.utils.clip_grad_norm_(model.parameters(), max_norm=args.clip)
            max_norm = max(max_norm, gn.item())
            opt.step()
            total += loss.item() * len(idx)
        if (epoch + 1) % 3 == 0:
            print(f"epoch {epoch + 1} focal={total / len(Xtr):.4f} max_grad_norm={max_norm:.3f} "
                  f"val_f1={f1_at_half(model, Xva, yva):.4f}")
    print(f"val_f1={f1_at_half(model, Xva, yva):.4f}")


if __name__ == "__main__":
    main()
