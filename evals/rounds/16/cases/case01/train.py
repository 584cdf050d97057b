import argparse
import math

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from losses import offset_poisson_nll, poisson_deviance
from simulate import simulate_portfolio


class RateNet(nn.Module):
    def __init__(self, n_in, hidden=32):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_in, hidden), nn.Tanh(),
            nn.Linear(hidden, hidden), nn.Tanh(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        # log of the annual claim rate
        return self.body(x).squeeze(-1)


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--n-policies", type=int, default=10000)
    p.add_argument("--seed", type=int, default=7)
    return p.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    X, expo, y = simulate_portfolio(args.n_policies, seed=args.seed)
    n_train = int(0.8 * len(y))
    tr = TensorDataset(torch.from_numpy(X[:n_train]), torch.from_numpy(expo[:n_train]),
                       torch.from_numpy(y[:n_train]))
    Xv, ev, yv = (torch.from_numpy(a[n_train:]) for a in (X, expo, y))
    loader = DataLoader(tr, batch_size=args.batch_size, shuffle=True)

    model = RateNet(X.shape[1])
    # start the intercept at the portfolio frequency so early epochs are sane
    base_freq = y[:n_train].sum() / expo[:n_train].sum()
    with torch.no_grad():
        model.body[-1].bias.fill_(math.log(base_freq))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for xb, eb, yb in loader:
            log_rate = model(xb)
            loss = offset_poisson_nll(log_rate, yb, eb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
        if epoch % 5 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch:3d} train_nll {total / n_train:.4f}")

    model.eval()
    with torch.no_grad():
        # clamp guards exp() against a wild policy during early experiments
        mu = torch.exp(model(Xv).clamp(-12.0, 6.0)) * ev
        dev = poisson_deviance(yv, mu).item()
        null_mu = torch.full_like(yv, float(base_freq)) * ev
        dev0 = poisson_deviance(yv, null_mu).item()
    d2 = 1.0 - dev / dev0
    print(f"val_deviance={dev:.4f}")
    print(f"val_d2={d2:.4f}")


if __name__ == "__main__":
    main()
