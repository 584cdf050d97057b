import json
import sys

import numpy as np
import torch
import torch.nn as nn


def synth(cfg, rng):
    n, F = cfg["n_rows"], cfg["n_farms"]
    farm = rng.integers(0, F, n)
    farm_eff = rng.normal(0, 0.3, F)
    hail_days = rng.poisson(3, n).astype(np.float32)
    stone = rng.uniform(0, 3, n).astype(np.float32)
    shelter = rng.uniform(0, 1, n).astype(np.float32)
    exposure = rng.integers(5, 80, n).astype(np.float32)
    log_rate = -4.0 + 0.25 * hail_days + 0.6 * stone - 1.2 * shelter + farm_eff[farm]
    y = rng.poisson(exposure * np.exp(log_rate)).astype(np.float32)
    X = np.stack([hail_days / 3, stone, shelter], 1).astype(np.float32)
    return X, farm, exposure, y


class ClaimRate(nn.Module):
    def __init__(self, n_feat, n_farms, emb_dim):
        super().__init__()
        self.weather = nn.Linear(n_feat, 1)
        self.farm_emb = nn.Embedding(n_farms, emb_dim)
        self.farm_out = nn.Linear(emb_dim, 1, bias=False)
        nn.init.normal_(self.farm_emb.weight, std=0.01)

    def forward(self, x, farm, exposure):
        return self.weather(x).squeeze(1) + self.farm_out(self.farm_emb(farm)).squeeze(1) + exposure.log()


def apply_warm_start(model, ws):
    # for warm starts only the farm embeddings are updated
    if ws.get("enabled"):
        for name, p in model.named_parameters():
            p.requires_grad_(name.startswith(ws["train_only"]))


def deviance(log_mu, y):
    mu = log_mu.exp()
    t = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return (2 * (t - (y - mu))).mean().item()


def main():
    cfg = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "claims.json"))
    rng = np.random.default_rng(cfg["seed"])
    torch.manual_seed(cfg["seed"])
    X, farm, expo, y = map(torch.tensor, synth(cfg, rng))
    cut = int(0.8 * len(y))
    model = ClaimRate(X.shape[1], cfg["n_farms"], cfg["emb_dim"])
    apply_warm_start(model, cfg["warm_start"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    lossf = nn.PoissonNLLLoss(log_input=True, full=False)
    for ep in range(cfg["epochs"]):
        perm = torch.randperm(cut)
        for i in range(0, cut, 256):
            idx = perm[i:i + 256]
            loss = lossf(model(X[idx], farm[idx], expo[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            dev = deviance(model(X[cut:], farm[cut:], expo[cut:]), y[cut:])
        if ep % 10 == 9:
            print(f"epoch {ep+1} nll {loss.item():.4f} val_deviance {dev:.4f}")
    print(f"val_deviance={dev:.4f}")


if __name__ == "__main__":
    main()
