import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from tiles import make_tiles


class SobelElevation(nn.Module):
    """Fixed horizontal/vertical gradient of the elevation channel."""

    def __init__(self):
        super().__init__()
        k = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]]) / 8
        self.conv = nn.Conv2d(1, 2, 3, padding=1, bias=False)
        with torch.no_grad():
            self.conv.weight.copy_(torch.stack([k, k.t()]).unsqueeze(1))
        self.conv.requires_grad_(False)

    def forward(self, elev):
        return self.conv(elev)


class MarshFCN(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.sobel = SobelElevation()
        self.body = nn.Sequential(
            nn.Conv2d(5, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=2, dilation=2), nn.ReLU(),
            nn.Dropout2d(0.1),
            nn.Conv2d(width, width, 3, padding=4, dilation=4), nn.ReLU(),
            nn.Conv2d(width, 1, 1),
        )

    def forward(self, x):
        return self.body(torch.cat([x, self.sobel(x[:, 2:3])], dim=1))


def iou(logits, mask):
    pred = torch.sigmoid(logits) > 0.5
    inter = (pred & (mask > 0.5)).sum().item()
    union = (pred | (mask > 0.5)).sum().item()
    return inter / max(union, 1)


class ValidationCallback:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __call__(self, model, epoch):
        model.eval()
        with torch.no_grad():
            score = iou(model(self.x), self.y)
        model.train()
        return score


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr, ytr = map(torch.from_numpy, make_tiles(500, args.seed))
    xva, yva = map(torch.from_numpy, make_tiles(200, args.seed + 7))
    mean = xtr.mean(dim=(0, 2, 3), keepdim=True)
    std = xtr.std(dim=(0, 2, 3), keepdim=True)
    xtr, xva = (xtr - mean) / std, (xva - mean) / std

    model = MarshFCN()
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-3)
    pos_frac = ytr.mean()
    crit = nn.BCEWithLogitsLoss(pos_weight=(1 - pos_frac) / pos_frac)
    validate = ValidationCallback(xva, yva)

    model.train()
    smooth = None
    for epoch in range(args.epochs):
        perm = torch.randperm(len(xtr))
        for step, i in enumerate(range(0, len(perm), 32)):
            b = perm[i:i + 32]
            loss = crit(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            smooth = loss.detach() if smooth is None else 0.9 * smooth + 0.1 * loss.detach()
            if step == 12:   # mid-epoch check
                mid = validate(model, epoch)
        score = validate(model, epoch)
        print(f"epoch {epoch + 1} loss~{smooth.item():.4f} mid_iou={mid:.3f} val_iou={score:.4f}")
    print(f"val_iou={score:.4f}")


if __name__ == "__main__":
    main()
