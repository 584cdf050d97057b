import argparse

import numpy as np
import torch
import torch.nn as nn

from sites import monitoring_table


class SlipRegressor(nn.Module):
    def __init__(self, n_in, hidden=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_in, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
        )
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.out(self.body(x))


def campaign_weights(year):
    # inclinometers installed after 2015 read to 0.1 mm, older ones to ~1 mm
    return torch.where(year >= 2015, torch.tensor(1.0), torch.tensor(0.6))


def weighted_mse(pred, target, w):
    return ((pred - target) ** 2 * w).sum() / w.sum()


def r2(pred, target):
    return 1 - ((pred - target) ** 2).sum() / ((target - target.mean()) ** 2).sum()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    X, disp = monitoring_table()
    year = torch.from_numpy(X[:, -1].copy())
    y = torch.log1p(torch.from_numpy(disp))

    idx = torch.randperm(len(X), generator=torch.Generator().manual_seed(0))
    va, tr = idx[:600], idx[600:]
    X = torch.from_numpy(X)
    mu, sd = X[tr].mean(0), X[tr].std(0)
    Xn = (X - mu) / sd
    w = campaign_weights(year)

    model = SlipRegressor(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = tr[torch.randperm(len(tr))]
        for i in range(0, len(perm), args.batch_size):
            b = perm[i:i + args.batch_size]
            loss = weighted_mse(model(Xn[b]), y[b], w[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            model.eval()
            with torch.no_grad():
                score = r2(model(Xn[va]).squeeze(-1), y[va]).item()
            print(f"epoch {epoch + 1} train_loss={loss.item():.4f} val_r2={score:.4f}")
    print(f"val_r2={score:.4f}")


if __name__ == "__main__":
    main()
