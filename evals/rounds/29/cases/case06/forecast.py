import argparse

import numpy as np
import torch
import torch.nn as nn

from lakesim import simulate_lake
from windows import make_windows


class LevelMLP(nn.Module):
    def __init__(self, n_in, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(),
                                 nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lookback", type=int, default=30)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    rain, level = simulate_lake(seed=args.seed)
    X, y = make_windows(level, rain, args.lookback)

    cut = int(0.8 * len(X))
    scale = level[:cut].std()
    Xtr, ytr = torch.tensor(X[:cut]), torch.tensor(y[:cut])
    Xva, yva = torch.tensor(X[cut:]), torch.tensor(y[cut:])
    mu = Xtr.mean(0)
    sd = Xtr.std(0) + 1e-6
    Xtr, Xva = (Xtr - mu) / sd, (Xva - mu) / sd

    model = LevelMLP(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    g = torch.Generator().manual_seed(args.seed)
    for epoch in range(args.epochs):
        perm = torch.randperm(len(Xtr), generator=g)
        run = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            pred = model(Xtr[idx])
            loss = ((pred - ytr[idx] / scale) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item() * len(idx)
        if epoch % 5 == 0:
            print(f"epoch {epoch:2d} mse(scaled) {run / len(Xtr):.4f}")

    model.eval()
    with torch.no_grad():
        rmse = torch.sqrt(((model(Xva) * scale - yva) ** 2).mean()).item()
    print(f"val_rmse={rmse:.3f}")


if __name__ == "__main__":
    main()
