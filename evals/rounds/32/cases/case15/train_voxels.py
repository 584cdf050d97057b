import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from voxels import D, make_scans


class SliceEncoder(nn.Module):
    """Shared 2-D encoder applied to every depth slice, pooled over depth."""

    def __init__(self, width=16, n_classes=4):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, width * 2, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(2),
        )
        self.head = nn.Sequential(nn.Linear(width * 8, 64), nn.ReLU(), nn.Linear(64, n_classes))

    def forward(self, vox):
        b, d, h, w = vox.shape
        slices = vox.reshape(b * d, 1, h, w)
        feats = self.conv(slices).flatten(1)
        pooled = feats.view(d, b, -1).mean(0)
        return self.head(pooled)


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    x, y = make_scans(1200, seed=args.seed)
    x, y = torch.from_numpy(x), torch.from_numpy(y)
    x_tr, y_tr, x_va, y_va = x[:960], y[:960], x[960:], y[960:]
    model = SliceEncoder()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(x_tr))
        for s in range(0, len(perm), args.batch_size):
            idx = perm[s:s + args.batch_size]
            loss = F.cross_entropy(model(x_tr[idx]), y_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch + 1} loss {loss.item():.4f} val_acc {accuracy(model, x_va, y_va):.3f}")
    print(f"val_acc={accuracy(model, x_va, y_va):.4f}")


if __name__ == "__main__":
    main()
