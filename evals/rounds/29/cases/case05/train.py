import argparse
import os

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

from brewlog import write_csv, read_csv
from data import BrewSet

N_LEVELS = 5


class ProportionalOdds(nn.Module):
    def __init__(self, n_in, hidden=32, n_levels=N_LEVELS):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(),
                                   nn.Linear(hidden, 1))
        self.first_cut = nn.Parameter(torch.tensor(-2.0))
        self.log_gaps = nn.Parameter(torch.zeros(n_levels - 2))

    def cutpoints(self):
        gaps = F.softplus(self.log_gaps) + 0.05
        return torch.cat([self.first_cut.view(1), self.first_cut + torch.cumsum(gaps, 0)])

    def forward(self, x):
        """Log-probabilities of the levels, shape (N, n_levels)."""
        s = self.score(x)                                   # (N, 1)
        cdf = torch.sigmoid(self.cutpoints().unsqueeze(0) - s)   # P(y <= k)
        cdf = torch.cat([torch.zeros_like(s), cdf, torch.ones_like(s)], 1)
        probs = (cdf[:, 1:] - cdf[:, :-1]).clamp(min=1e-6)
        return probs.log()


def evaluate(model, ds):
    model.eval()
    with torch.no_grad():
        pred = model(ds.x).argmax(1)
    return (pred - ds.grades).abs().float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--csv", default="data/brews.csv")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    if not os.path.exists(args.csv):
        write_csv(args.csv, seed=0)

    rows = read_csv(args.csv)
    g = torch.Generator().manual_seed(args.seed)
    order = torch.randperm(len(rows), generator=g).tolist()
    n_val = len(rows) // 5
    train_ds = BrewSet([rows[i] for i in order[n_val:]])
    val_ds = BrewSet([rows[i] for i in order[:n_val]], stats=train_ds.stats)

    model = ProportionalOdds(train_ds.x.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loader = DataLoader(train_ds, batch_size=64, shuffle=True, generator=g)
    for epoch in range(args.epochs):
        model.train()
        for x, y in loader:
            loss = F.nll_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 10 == 0:
            print(f"epoch {epoch:2d} nll {loss.item():.4f} val_mae {evaluate(model, val_ds):.3f}")
    print(f"val_mae={evaluate(model, val_ds):.4f}")


if __name__ == "__main__":
    main()
