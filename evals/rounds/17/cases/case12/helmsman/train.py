import argparse

import torch
from torch import nn

from .metrics import heading_mae
from .sim import simulate


class HeadingNet(nn.Module):
    def __init__(self, n_in, width=64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_in, width), nn.Tanh(),
                                 nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 2))

    def forward(self, x):
        v = self.mlp(x)
        return v / v.norm(dim=1, keepdim=True).clamp(min=1e-6)   # (sin, cos)

    def heading_deg(self, x):
        sc = self(x)
        return torch.rad2deg(torch.atan2(sc[:, 0], sc[:, 1]))


def cosine_loss(sc, heading_deg):
    rad = torch.deg2rad(heading_deg)
    return (1 - (sc[:, 0] * torch.sin(rad) + sc[:, 1] * torch.cos(rad))).mean()


def main():
    ap = argparse.ArgumentParser(prog="helmsman")
    ap.add_argument("--n", type=int, default=8000)
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    X, hdg = simulate(args.n, args.seed)
    X, hdg = torch.from_numpy(X), torch.from_numpy(hdg)
    nv = args.n // 5
    Xtr, htr, Xva, hva = X[nv:], hdg[nv:], X[:nv], hdg[:nv]

    model = HeadingNet(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 128):
            idx = perm[i:i + 128]
            opt.zero_grad()
            loss = cosine_loss(model(Xtr[idx]), htr[idx])
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            model.eval()
            with torch.no_grad():
                mae = heading_mae(model.heading_deg(Xva), hva)
            print(f"epoch {epoch + 1} loss={loss.item():.4f} val_mae_deg={mae:.2f}")
    model.eval()
    with torch.no_grad():
        mae = heading_mae(model.heading_deg(Xva), hva)
    print(f"val_mae_deg={mae:.3f}")
