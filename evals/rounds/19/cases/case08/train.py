import argparse

import numpy as np
import torch
import torch.nn as nn

from poses import LETTERS, sample


class PoseNet(nn.Module):
    def __init__(self, n_in=7, hidden=32, n_out=len(LETTERS)):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Linear(n_in * 2, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.head = nn.Linear(hidden, n_out)

    def forward(self, deg):
        rad = torch.deg2rad(deg)
        x = torch.cat([torch.sin(rad), torch.cos(rad)], dim=-1)   # angles as points on the circle
        return self.head(self.backbone(x))


def param_groups(model, lr, head_lr_mult):
    backbone_params = model.backbone.parameters()
    n_backbone = sum(p.numel() for p in backbone_params)
    print(f"backbone params: {n_backbone}, head params: {sum(p.numel() for p in model.head.parameters())}")
    return [
        {"params": backbone_params, "lr": lr},
        {"params": model.head.parameters(), "lr": lr * head_lr_mult},
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--head-lr-mult", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)
    Xtr, ytr = map(torch.from_numpy, sample(3000, rng))
    Xva, yva = map(torch.from_numpy, sample(800, np.random.default_rng(5)))

    model = PoseNet()
    opt = torch.optim.Adam(param_groups(model, a.lr, a.head_lr_mult))
    lossf = nn.CrossEntropyLoss(label_smoothing=0.05)
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for s in range(0, len(Xtr), 64):
            j = perm[s:s + 64]
            loss = lossf(model(Xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            acc = (model(Xva).argmax(1) == yva).float().mean().item()
        if (ep + 1) % 5 == 0:
            print(f"ep {ep + 1} loss {loss.item():.3f} val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
