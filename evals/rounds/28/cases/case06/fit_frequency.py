import argparse
import json

import numpy as np
import torch
from torch import nn

from book import policies


class ClaimRate(nn.Module):
    def __init__(self, n_x, climate_table, hidden):
        super().__init__()
        # climatology is an external, fixed input: looked up, never fitted
        self.climate = nn.Embedding.from_pretrained(torch.from_numpy(climate_table), freeze=True)
        self.mlp = nn.Sequential(nn.Linear(n_x + climate_table.shape[1], hidden), nn.Tanh(),
                                 nn.Linear(hidden, 1))

    def forward(self, x, county, exposure):
        log_rate = self.mlp(torch.cat([x, self.climate(county)], dim=1)).squeeze(1)
        return log_rate + torch.log(exposure)            # log expected count


def poisson_deviance(y, mu):
    term = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return 2 * (term - (y - mu)).sum()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="frequency.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    X, county, expo, y, clim = policies(cfg["n_policies"], cfg["n_counties"], cfg["seed"])
    X, county, expo, y = map(torch.from_numpy, (X, county, expo, y))
    n_val = len(y) // 5
    tr, va = slice(n_val, None), slice(0, n_val)

    model = ClaimRate(X.shape[1], clim, cfg["hidden"])
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=cfg["lr"])
    nll = nn.PoissonNLLLoss(log_input=True)

    n_tr = len(y) - n_val
    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(n_tr) + n_val
        total, biggest = 0.0, 0.0
        for i in range(0, n_tr, cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            loss = nll(model(X[idx], county[idx], expo[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            gn = nn.utils.clip_grad_norm_(model.parameters(), cfg["max_grad_norm"])
            biggest = max(biggest, gn.item())
            opt.step()
            total += loss.item() * len(idx)
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1} nll={total / n_tr:.4f} max_grad_norm={biggest:.3f}")

    with torch.no_grad():
        mu = model(X[va], county[va], expo[va]).exp()
        mu0 = torch.full_like(mu, (y[tr].sum() / expo[tr].sum()).item()) * expo[va]
        d2 = 1 - poisson_deviance(y[va], mu) / poisson_deviance(y[va], mu0)
    print(f"val_d2={d2.item():.4f}")


if __name__ == "__main__":
    main()
