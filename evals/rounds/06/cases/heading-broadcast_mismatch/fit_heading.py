import argparse
import math

import torch
import torch.nn as nn

from sim import simulate


class HeadingNet(nn.Module):
    def __init__(self, n_in=12, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.head = nn.Linear(hidden, 2)

    def forward(self, x):
        return self.head(self.body(x))  # (sin, cos), not normalized

    @staticmethod
    def to_angle(sc):
        return torch.atan2(sc[:, :1], sc[:, 1:])


def angular_loss(sc, theta):
    pred = HeadingNet.to_angle(sc)
    # 1 - cos(d) is smooth and periodic; keep the (sin, cos) pair near the unit circle
    norm_pen = (sc.norm(dim=1) - 1.0).pow(2).mean()
    return (1.0 - torch.cos(pred - theta)).mean() + 0.1 * norm_pen


def angular_mae_deg(pred, theta):
    d = torch.remainder(pred - theta + math.pi, 2 * math.pi) - math.pi
    return d.abs().mean().item() * 180.0 / math.pi


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    x_tr, t_tr = simulate(8000, seed=1)
    x_va, t_va = simulate(2000, seed=2)

    model = HeadingNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for step in range(1, args.steps + 1):
        idx = torch.randint(0, len(x_tr), (args.batch,))
        loss = angular_loss(model(x_tr[idx]), t_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 300 == 0:
            with torch.no_grad():
                mae = angular_mae_deg(HeadingNet.to_angle(model(x_va)).squeeze(1), t_va)
            print(f"step {step}: loss={loss.item():.4f} val_mae_deg={mae:.2f}")

    with torch.no_grad():
        mae = angular_mae_deg(HeadingNet.to_angle(model(x_va)).squeeze(1), t_va)
    print(f"val_mae_deg={mae:.2f}")


if __name__ == "__main__":
    main()
