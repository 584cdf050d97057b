import argparse

import torch
from torch import nn

from geometry import deg, sample, wrap_to_pi


class DialNet(nn.Module):
    def __init__(self, n_in=7, hidden=96):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(),
                                 nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 2))

    def forward(self, x):
        return self.net(x)


def angle_of(v):
    return torch.atan2(v[:, 1], v[:, 0])


def angular_loss(v, theta, unit_weight=0.1):
    err = wrap_to_pi(angle_of(v) - theta)
    unit = (v.norm(dim=1) - 1.0) ** 2          # keep the output near the unit circle
    return (err ** 2).mean() + unit_weight * unit.mean()


@torch.no_grad()
def mae_deg(model, X, theta):
    model.eval()
    err = wrap_to_pi(angle_of(model(X)) - theta).abs().mean()
    model.train()
    return deg(err.item())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    Xtr, ttr = map(torch.from_numpy, sample(6000, seed=args.seed))
    Xva, tva = map(torch.from_numpy, sample(1500, seed=args.seed + 100))
    model = DialNet()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 128):
            idx = perm[i:i + 128]
            loss = angular_loss(model(Xtr[idx]), ttr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1} loss={loss.item():.4f} val_mae_deg={mae_deg(model, Xva, tva):.2f}")
    print(f"val_mae_deg={mae_deg(model, Xva, tva):.3f}")


if __name__ == "__main__":
    main()
