import argparse
import math

import numpy as np
import torch
import torch.nn as nn

N_FARMS = 30


def simulate(n, rng, farm_eff):
    farm = rng.integers(0, N_FARMS, size=n)
    frost_nights = rng.uniform(0, 40, size=n)
    altitude = rng.uniform(2.5, 4.8, size=n)
    shelter = rng.uniform(0, 1, size=n)
    herd = rng.uniform(10, 200, size=n)
    exposure = herd * rng.uniform(3, 12, size=n)
    log_rate = -6.5 + 0.06 * frost_nights + 0.8 * (altitude - 3.5) - 1.6 * shelter + farm_eff[farm]
    claims = rng.poisson(exposure * np.exp(log_rate))
    feats = np.stack([frost_nights / 20 - 1, altitude - 3.6, shelter * 2 - 1, np.log(herd) - 4], 1)
    t = lambda a, d=torch.float32: torch.tensor(a, dtype=d)
    return t(feats), t(farm, torch.long), t(np.log(exposure)), t(claims)


class ClaimRate(nn.Module):
    def __init__(self):
        super().__init__()
        self.farm = nn.Embedding(N_FARMS, 1)
        nn.init.zeros_(self.farm.weight)
        self.mlp = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
        self.intercept = nn.Parameter(torch.tensor(-6.0))

    def _stable(self, eta):
        # keep exp() from overflowing on the first steps
        return eta.data.clamp(-8.0, 8.0)

    def forward(self, x, farm, log_exposure):
        eta = self._stable(self.mlp(x).squeeze(-1))
        return self.intercept + eta + self.farm(farm).squeeze(-1) + log_exposure


def poisson_deviance(mu, y):
    y = y.clamp(min=0)
    term = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return 2 * (term - (y - mu)).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    farm_eff = rng.normal(0, 0.3, N_FARMS)
    tr = simulate(4000, rng, farm_eff)
    va = simulate(1000, rng, farm_eff)
    model = ClaimRate()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.PoissonNLLLoss(log_input=True)
    for ep in range(args.epochs):
        perm = torch.randperm(len(tr[3]))
        for i in range(0, len(perm), 200):
            b = perm[i:i + 200]
            log_mu = model(tr[0][b], tr[1][b], tr[2][b])
            loss = loss_fn(log_mu, tr[3][b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 10 == 0:
            print(f"epoch {ep} nll {loss.item():.4f}")
    with torch.no_grad():
        mu = model(*va[:3]).exp()
        dev = poisson_deviance(mu, va[3]).item()
        null = poisson_deviance(va[2].exp() * va[3].sum() / va[2].exp().sum(), va[3]).item()
    print(f"val_deviance={dev:.4f} (exposure-only baseline {null:.4f})")
    print(f"val_deviance_explained={1 - dev / null:.4f}")


if __name__ == "__main__":
    main()
