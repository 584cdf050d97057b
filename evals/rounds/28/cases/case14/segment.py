import argparse

import torch
from torch import nn
import torch.nn.functional as F

from tiles import IGNORE, make

N_CLASSES = 3


def colour_edge_bank():
    """Fixed 3x3 filters: R, G, B, excess-green, excess-red, grey Sobel-x, grey Sobel-y."""
    k = torch.zeros(7, 3, 3, 3)
    for c in range(3):
        k[c, c, 1, 1] = 1.0
    k[3, :, 1, 1] = torch.tensor([-1.0, 2.0, -1.0])
    k[4, :, 1, 1] = torch.tensor([1.4, -1.0, -0.4])
    sobel = torch.tensor([[-1.0, 0, 1], [-2, 0, 2], [-1, 0, 1]]) / 3.0
    k[5] = sobel.expand(3, 3, 3) / 3
    k[6] = sobel.t().expand(3, 3, 3) / 3
    conv = nn.Conv2d(3, 7, 3, padding=1, bias=False)
    conv.weight.data.copy_(k)
    return conv


class LeafSeg(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.stem = colour_edge_bank().requires_grad_(False)
        self.body = nn.Sequential(
            nn.Conv2d(7, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=2, dilation=2), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=4, dilation=4), nn.ReLU(),
            nn.Conv2d(width, N_CLASSES, 1),
        )

    def forward(self, x):
        with torch.no_grad():
            feats = self.stem(x)
        return F.log_softmax(self.body(feats), dim=1)


def miou(pred, target):
    valid = target != IGNORE
    ious = []
    for c in range(N_CLASSES):
        p, t = (pred == c) & valid, (target == c) & valid
        union = (p | t).sum().item()
        if union:
            ious.append((p & t).sum().item() / union)
    return sum(ious) / len(ious)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, Ytr = map(torch.from_numpy, make(600, args.seed))
    Xva, Yva = map(torch.from_numpy, make(150, args.seed + 1))
    model = LeafSeg()
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=3e-3)
    weights = torch.tensor([1.0, 1.0, 3.0])           # lesions are rare

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 32):
            idx = perm[i:i + 32]
            loss = F.cross_entropy(model(Xtr[idx]), Ytr[idx], weight=weights, ignore_index=IGNORE)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            score = miou(model(Xva).argmax(1), Yva)
        if epoch % 3 == 2:
            print(f"epoch {epoch + 1} loss={loss.item():.4f} val_miou={score:.4f}")
    print(f"val_miou={score:.4f}")


if __name__ == "__main__":
    main()
