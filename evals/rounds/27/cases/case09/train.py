import argparse
import math

import torch
import torch.nn as nn

from imu import simulate


class FIRSmoother(nn.Module):
    """Fixed 5-tap binomial low-pass, applied per channel (not learned)."""

    def __init__(self, channels):
        super().__init__()
        taps = torch.tensor([1.0, 4.0, 6.0, 4.0, 1.0]) / 16.0
        self.conv = nn.Conv1d(channels, channels, 5, padding=2, groups=channels, bias=False)
        with torch.no_grad():
            self.conv.weight.copy_(taps.expand(channels, 1, 5))
        self.conv.weight.requires_grad_(False)

    def forward(self, x):
        return self.conv(x)


class PaddleNet(nn.Module):
    def __init__(self, ch=6, width=32):
        super().__init__()
        self.smooth = FIRSmoother(ch)
        self.net = nn.Sequential(
            nn.Conv1d(ch, width, 5, padding=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2), nn.ReLU(),
        )
        self.head = nn.Linear(width * 2, 2)

    def forward(self, x):
        h = self.net(self.smooth(x))
        # the last sample matters most: pool it together with the window mean
        return self.head(torch.cat([h[..., -1], h.mean(-1)], 1))


def angle_loss(out, angle):
    target = torch.stack([torch.cos(angle), torch.sin(angle)], 1)
    return ((out - target) ** 2).sum(1).mean()


def circular_mae_deg(out, angle):
    pred = torch.atan2(out[:, 1], out[:, 0])
    diff = torch.remainder(pred - angle + math.pi, 2 * math.pi) - math.pi
    return diff.abs().mean().item() * 180 / math.pi


def sgd_step(params, velocity, lr, momentum):
    with torch.no_grad():
        for p, v in zip(params, velocity):
            v.mul_(momentum).add_(p.grad)
            p.data.add_(v, alpha=-lr)
            p.grad = None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lr", type=float, default=0.02)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    Xtr, atr = map(torch.from_numpy, simulate(3000, args.seed))
    Xva, ava = map(torch.from_numpy, simulate(600, args.seed + 1))

    model = PaddleNet()
    params = [p for p in model.parameters() if p.requires_grad]
    velocity = [torch.zeros_like(p) for p in params]
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 64):
            idx = perm[i:i + 64]
            loss = angle_loss(model(Xtr[idx]), atr[idx])
            loss.backward()
            sgd_step(params, velocity, args.lr, 0.9)
        model.eval()
        with torch.no_grad():
            mae = circular_mae_deg(model(Xva), ava)
        if epoch % 4 == 3:
            print(f"epoch {epoch + 1}  loss {loss.item():.4f}  val_mae_deg {mae:.2f}")
    print(f"val_mae_deg={mae:.2f}")


if __name__ == "__main__":
    main()
