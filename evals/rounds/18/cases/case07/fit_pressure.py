import argparse

import numpy as np
import torch
import torch.nn as nn

from strokes import simulate_strokes


class PressureNet(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(3, ch, 5, padding=2), nn.GELU(),
            nn.Conv1d(ch, ch, 5, padding=4, dilation=2), nn.GELU(),
            nn.Conv1d(ch, ch, 5, padding=8, dilation=4), nn.GELU(),
            nn.Conv1d(ch, 1, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(1)


def smoothness_score(p):
    """How smooth a pressure curve is (higher = smoother)."""
    return -(p[:, 1:] - p[:, :-1]).pow(2).sum(1).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--smooth-weight", type=float, default=0.5)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    xtr, ptr = map(torch.from_numpy, simulate_strokes(2400, seed=5))
    xva, pva = map(torch.from_numpy, simulate_strokes(400, seed=6))

    model = PressureNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            pred = model(xtr[b])
            mse = (pred - ptr[b]).pow(2).sum(1).mean()
            loss = mse + args.smooth_weight * smoothness_score(pred)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            mae = (model(xva).clamp(0, 1) - pva).abs().mean().item()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} loss={loss.item():.4f} mse={mse.item():.4f} val_mae={mae:.4f}")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
