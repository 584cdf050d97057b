import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from tiles import CoastTiles


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(inplace=True),
                         nn.Conv2d(cout, cout, 3, padding=1), nn.ReLU(inplace=True))


class TinySeg(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.enc1 = conv_block(3, ch)
        self.enc2 = conv_block(ch, 2 * ch)
        self.up = nn.ConvTranspose2d(2 * ch, ch, 2, stride=2)
        self.dec = conv_block(2 * ch, ch)
        self.out = nn.Conv2d(ch, 1, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        d = self.dec(torch.cat([self.up(e2), e1], dim=1))
        return self.out(d)


def masked_bce(logits, target, weight):
    per_px = F.binary_cross_entropy_with_logits(logits, target, reduction="none")
    return (per_px * weight).sum() / weight.sum().clamp_min(1.0)


@torch.no_grad()
def iou_on_valid(model, loader):
    model.eval()
    inter = union = 0.0
    for batch in loader:
        pred = (model(batch["image"]) > 0).float()
        valid = 1.0 - batch["mask"]
        t = batch["target"]
        inter += (pred * t * valid).sum().item()
        union += (((pred + t) > 0).float() * valid).sum().item()
    return inter / max(union, 1.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    train_loader = DataLoader(CoastTiles(600, seed=1), batch_size=args.batch_size, shuffle=True)
    val_loader = DataLoader(CoastTiles(200, seed=2), batch_size=100)

    model = TinySeg()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        for batch in train_loader:
            logits = model(batch["image"])
            loss = masked_bce(logits, batch["target"], batch["mask"])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: last loss {loss.item():.4f}  val_iou {iou_on_valid(model, val_loader):.4f}")
    print(f"val_iou={iou_on_valid(model, val_loader):.4f}")


if __name__ == "__main__":
    main()
