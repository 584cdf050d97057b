import argparse
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from thermal import render_tiles


class CrackNet(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, c, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(c, c, 3, padding=1), nn.ReLU())
        self.map_head = nn.Conv2d(c, 1, 1)
        self.tile_head = nn.Linear(c, 1)

    def forward(self, x):
        h = self.enc(x)
        return self.tile_head(h.mean((2, 3))).squeeze(1), self.map_head(h)


def pixel_f1(logits, masks):
    pred = (logits > 0).float()
    tp = (pred * masks).sum()
    return (2 * tp / (pred.sum() + masks.sum() + 1e-8)).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--map_weight", type=float, default=1.0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    x, m, c = render_tiles(1600, rng)
    xv, mv, cv = render_tiles(300, rng)
    net = CrackNet()
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    for ep in range(args.epochs):
        perm = torch.randperm(len(x))
        for i in range(0, len(x), 32):
            b = perm[i:i + 32]
            tile_logit, map_logit = net(x[b])
            tile_loss = F.binary_cross_entropy_with_logits(tile_logit, c[b])
            map_loss = F.binary_cross_entropy_with_logits(m[b], map_logit)
            loss = tile_loss + args.map_weight * map_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {ep} tile {tile_loss.item():.3f} map {map_loss.item():.3f}")
    with torch.no_grad():
        tl, ml = net(xv)
    print(f"val_tile_acc={((tl > 0).float() == cv).float().mean().item():.4f}")
    print(f"val_pixel_f1={pixel_f1(ml, mv):.4f}")


if __name__ == "__main__":
    main()
