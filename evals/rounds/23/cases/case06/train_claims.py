import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from baseline import RegionBaseline, fit_region_rates
from portfolio import N_REGIONS, make_portfolio


class ClaimRateModel(nn.Module):
    def __init__(self, n_in, baseline, hidden=48):
        super().__init__()
        self.baseline = baseline
        self.adjust = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x, region, exposure):
        """Returns the log of the expected claim count."""
        return self.baseline(region) + self.adjust(x).squeeze(-1) + torch.log(exposure)


def poisson_deviance(log_mu, y):
    mu = log_mu.exp()
    term = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return 2 * (term - (y - mu)).sum().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--lr", type=float, default=1e-2)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    X, reg, expo, y = make_portfolio(12000, seed=42)
    Xv, regv, expov, yv = make_portfolio(4000, seed=43)
    baseline = RegionBaseline(fit_region_rates(reg, expo, y, N_REGIONS))
    model = ClaimRateModel(X.shape[1], baseline)
    T = [torch.from_numpy(a) for a in (X, reg, expo, y)]
    V = [torch.from_numpy(a) for a in (Xv, regv, expov, yv)]

    bs = 256
    steps_per_epoch = (len(y) + bs - 1) // bs
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=args.lr)
    # one-cycle schedule: advanced once per optimizer step
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, epochs=args.epochs,
                                                steps_per_epoch=steps_per_epoch)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(y))
        total = 0.0
        for i in range(0, len(y), bs):
            idx = perm[i:i + bs]
            log_mu = model(T[0][idx], T[1][idx], T[2][idx])
            loss = F.poisson_nll_loss(log_mu, T[3][idx], log_input=True)
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), max_norm=10.0)
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            dev = poisson_deviance(model(V[0], V[1], V[2]), V[3])
            dev0 = poisson_deviance(baseline(V[1]) + torch.log(V[2]), V[3])
        print(f"epoch {epoch + 1:2d} nll={total / len(y):.4f} val_dev={dev:.1f} base_dev={dev0:.1f}")
    print(f"METRIC val_deviance_ratio={dev / dev0:.4f}")


if __name__ == "__main__":
    main()
