import argparse

import numpy as np
import torch
import torch.nn as nn

from gauge import harbour_record
from windows import make_inputs, make_targets


class TideMLP(nn.Module):
    def __init__(self, window, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(window, hidden), nn.Tanh(),
                                 nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--window", type=int, default=48)
    ap.add_argument("--horizon", type=int, default=6)
    ap.add_argument("--stride", type=int, default=3)
    ap.add_argument("--hours", type=int, default=24 * 365)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    series = harbour_record(args.hours, seed=11)
    cut = int(0.7 * len(series))
    train_s, val_s = series[:cut], series[cut:]
    xtr = make_inputs(train_s, args.window, args.horizon, args.stride)
    ytr = make_targets(train_s, args.window, args.horizon, args.stride)
    xva = make_inputs(val_s, args.window, args.horizon, 1)
    yva = make_targets(val_s, args.window, args.horizon, 1)
    print(f"train windows {len(xtr)}, val windows {len(xva)}")
    persistence = float(np.sqrt(np.mean((xva[:, -1] - yva) ** 2)))

    xtr, ytr, xva, yva = map(torch.from_numpy, (xtr, ytr, xva, yva))
    model = TideMLP(args.window)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)
    g = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(xtr), generator=g)
        for i in range(0, len(perm), 64):
            b = perm[i:i + 64]
            loss = nn.functional.mse_loss(model(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        if (epoch + 1) % 10 == 0:
            with torch.no_grad():
                rmse = nn.functional.mse_loss(model(xva), yva).sqrt().item()
            print(f"epoch {epoch + 1} train_mse {loss.item():.4f} val_rmse {rmse:.4f}")
    with torch.no_grad():
        rmse = nn.functional.mse_loss(model(xva), yva).sqrt().item()
    print(f"persistence_rmse={persistence:.4f}")
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
