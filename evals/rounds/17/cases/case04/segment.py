import argparse

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from reef_tiles import render


class TileSet(torch.utils.data.Dataset):
    """Wraps channels-last tiles; the network wants N x C x H x W."""

    def __init__(self, tiles, masks):
        n, h, w, c = tiles.shape
        self.x = torch.from_numpy(tiles).reshape(n, c, h, w).contiguous()
        self.y = torch.from_numpy(masks)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class SmallFCN(nn.Module):
    def __init__(self, width=24):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=2, dilation=2), nn.ReLU(),
            nn.Conv2d(width, 1, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(1)


def iou(model, loader):
    model.eval()
    inter = union = 0.0
    with torch.no_grad():
        for x, y in loader:
            pred = model(x) > 0
            truth = y > 0.5
            inter += (pred & truth).sum().item()
            union += (pred | truth).sum().item()
    return inter / max(union, 1.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tiles", type=int, default=400)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    tiles, masks = render(args.tiles, seed=args.seed)
    n_val = args.tiles // 5
    train_ds = TileSet(tiles[n_val:], masks[n_val:])
    val_ds = TileSet(tiles[:n_val], masks[:n_val])
    train_dl = torch.utils.data.DataLoader(train_ds, batch_size=16, shuffle=True)
    val_dl = torch.utils.data.DataLoader(val_ds, batch_size=64)

    model = SmallFCN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    pos_frac = masks[n_val:].mean()
    pos_weight = torch.tensor((1 - pos_frac) / pos_frac)
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for x, y in train_dl:
            opt.zero_grad()
            loss = F.binary_cross_entropy_with_logits(model(x), y, pos_weight=pos_weight)
            loss.backward()
            opt.step()
            total += loss.item() * len(y)
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} bce={total / len(train_ds):.4f} val_iou={iou(model, val_dl):.4f}")
    print(f"val_iou={iou(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
