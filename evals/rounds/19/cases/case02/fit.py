import argparse
import math
import tomllib

import numpy as np
import torch
import torch.nn as nn


def simulate(cfg, rng):
    n, R = cfg["n_policies"], cfg["n_regions"]
    region = rng.integers(0, R, n)
    region_effect = rng.normal(0, 0.5, R)
    frost = rng.poisson(8, n).astype(float)
    tmin = rng.normal(-3, 3, n)
    elev = rng.uniform(0, 1.5, n)
    shelter = rng.uniform(0, 1, n)
    exposure = rng.uniform(0.1, 1.0, n)
    log_rate = -1.2 + 0.12 * frost - 0.25 * np.minimum(tmin, 0) + 1.2 * elev * (1 - shelter) + region_effect[region]
    counts = rng.poisson(exposure * np.exp(log_rate))
    X = np.stack([frost / 10, tmin / 3, elev, shelter], 1).astype(np.float32)
    return X, region, exposure.astype(np.float32), counts.astype(np.float32), region_effect


class FrostPoisson(nn.Module):
    def __init__(self, d_in, n_regions, region_dim, hidden, region_init):
        super().__init__()
        self.region = nn.Embedding(n_regions, region_dim)
        with torch.no_grad():
            self.region.weight.zero_()
            self.region.weight[:, 0] = torch.as_tensor(region_init, dtype=torch.float32)
        self.region.requires_grad_(False)         # fixed: refitted once a year by the pricing team
        self.mlp = nn.Sequential(nn.Linear(d_in + region_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x, region, exposure):
        z = torch.cat([x, self.region(region)], 1)
        return self.mlp(z).squeeze(1) + torch.log(exposure)   # log-mean with exposure offset


def poisson_deviance(log_mu, y):
    mu = log_mu.exp()
    term = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return (2 * (term - (y - mu))).mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="frost.toml")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    with open(a.config, "rb") as fh:
        cfg = tomllib.load(fh)
    seed = cfg["seed"] if a.seed is None else a.seed
    torch.manual_seed(seed)
    X, region, expo, y, region_effect = simulate(cfg["data"], np.random.default_rng(seed))
    n_val = int(len(y) * cfg["data"]["val_fraction"])
    idx = np.random.default_rng(seed + 1).permutation(len(y))
    va, tr = idx[:n_val], idx[n_val:]
    T = lambda arr: torch.from_numpy(np.asarray(arr))
    Xtr, rtr, etr, ytr = T(X[tr]), T(region[tr]), T(expo[tr]), T(y[tr])
    Xva, rva, eva, yva = T(X[va]), T(region[va]), T(expo[va]), T(y[va])

    # last season's region effects (slightly stale)
    prior = region_effect + np.random.default_rng(99).normal(0, 0.05, len(region_effect))
    m = cfg["model"]
    model = FrostPoisson(X.shape[1], cfg["data"]["n_regions"], m["region_dim"], m["hidden"], prior)
    t = cfg["train"]
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=t["lr"],
                            weight_decay=t["weight_decay"])
    loss_fn = nn.PoissonNLLLoss(log_input=True, full=False)

    with torch.no_grad():
        baseline = math.log(ytr.sum().item() / etr.sum().item())
        base_dev = poisson_deviance(torch.full_like(yva, baseline) + torch.log(eva), yva)
    print(f"intercept-only val_deviance={base_dev:.4f}")
    for ep in range(t["epochs"]):
        perm = torch.randperm(len(ytr))
        for s in range(0, len(ytr), t["batch_size"]):
            j = perm[s:s + t["batch_size"]]
            loss = loss_fn(model(Xtr[j], rtr[j], etr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (ep + 1) % 5 == 0:
            with torch.no_grad():
                dev = poisson_deviance(model(Xva, rva, eva), yva)
            print(f"epoch {ep + 1}: nll={loss.item():.4f} val_deviance={dev:.4f}")
    print(f"val_deviance={dev:.4f}")


if __name__ == "__main__":
    main()
