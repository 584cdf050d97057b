import argparse

import torch
import torch.nn.functional as F
from torch import nn

from selfplay import generate


class ValueNet(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(2, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, (4, 4), padding=0), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3),
                                  nn.Linear(width * 3 * 4, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh())

    def forward(self, x):
        return self.head(self.body(x)).squeeze(-1)

    @torch.no_grad()
    def value(self, position):
        """Engine-facing call: one (2, 6, 7) position -> scalar value."""
        return self(position.unsqueeze(0))[0].item()


def evaluate(model, X, y):
    model.eval
    preds = torch.tensor([model.value(p) for p in X])
    return F.mse_loss(preds, y).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=6000)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    X, y = generate(args.positions, args.seed)
    X, y = torch.from_numpy(X), torch.from_numpy(y)
    nv = len(X) // 6
    Xtr, ytr, Xva, yva = X[nv:], y[nv:], X[:nv], y[:nv]
    print(f"target var (val)={yva.var().item():.4f}")

    model = ValueNet()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        total = 0.0
        for i in range(0, len(perm), 64):
            idx = perm[i:i + 64]
            opt.zero_grad()
            loss = F.mse_loss(model(Xtr[idx]), ytr[idx])
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if (epoch + 1) % 6 == 0:
            print(f"epoch {epoch + 1} train_mse={total / len(Xtr):.4f} val_mse={evaluate(model, Xva, yva):.4f}")
    print(f"val_mse={evaluate(model, Xva, yva):.4f}")


if __name__ == "__main__":
    main()
