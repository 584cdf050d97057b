import argparse
import math

import numpy as np
import torch
import torch.nn as nn

N_TERMINALS = 12


def make_days(n, seed):
    g = np.random.default_rng(seed)
    term = g.integers(0, N_TERMINALS, n)
    base = g.normal(0, 0.6, N_TERMINALS)              # terminal popularity
    dow = g.integers(0, 7, n)
    temp = g.normal(15, 7, n)
    rain = g.random(n) < 0.3
    ferries = g.poisson(8, n)
    log_sales = (4.0 + base[term] + 0.25 * (dow >= 5) - 0.02 * np.abs(temp - 12)
                 - 0.35 * rain + 0.04 * ferries + g.normal(0, 0.1, n))
    num = np.stack([np.sin(2 * math.pi * dow / 7), np.cos(2 * math.pi * dow / 7),
                    (temp - 15) / 7, rain.astype(float), (ferries - 8) / 3], 1)
    return (torch.tensor(term), torch.tensor(num, dtype=torch.float32),
            torch.tensor(log_sales, dtype=torch.float32))


class SalesModel(nn.Module):
    """Weather/calendar MLP plus a per-terminal offset on the log scale."""

    def __init__(self, n_terms, n_num, hidden=32):
        super().__init__()
        self.terminal_offset = nn.Embedding(n_terms, 1)
        self.trunk = nn.Sequential(nn.Linear(n_num, hidden), nn.ReLU(),
                                   nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, 1)

    def forward(self, term, num):
        return (self.head(self.trunk(num)) + self.terminal_offset(term)).squeeze(1)


def param_groups(model, lr):
    # no weight decay on the output layer, a little on the trunk
    return [
        {"params": model.trunk.parameters(), "lr": lr, "weight_decay": 1e-4},
        {"params": model.head.parameters(), "lr": lr},
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    term, num, y = make_days(3000, seed=8)
    cut = int(0.8 * len(y))
    mu, sd = y[:cut].mean(), y[:cut].std()
    y = (y - mu) / sd
    model = SalesModel(N_TERMINALS, num.shape[1])
    opt = torch.optim.AdamW(param_groups(model, a.lr), lr=a.lr, weight_decay=0.0)
    for ep in range(a.epochs):
        perm = torch.randperm(cut)
        for i in range(0, cut, 64):
            b = perm[i:i + 64]
            loss = nn.functional.mse_loss(model(term[b], num[b]), y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 5 == 4:
            print(f"epoch {ep + 1} mse={loss.item():.4f}")
    with torch.no_grad():
        p = model(term[cut:], num[cut:])
        t = y[cut:]
        r2 = 1 - ((p - t) ** 2).sum() / ((t - t.mean()) ** 2).sum()
    print(f"test_r2={r2.item():.4f}")


if __name__ == "__main__":
    main()
