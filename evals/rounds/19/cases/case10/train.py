import argparse
import copy
import json

import numpy as np
import torch
import torch.nn as nn

from engine import normal_set, test_set


class SpecAE(nn.Module):
    def __init__(self, d, hidden, latent):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, hidden), nn.ELU(), nn.Linear(hidden, latent))
        self.dec = nn.Sequential(nn.Linear(latent, hidden), nn.ELU(), nn.Linear(hidden, d))

    def forward(self, x):
        return self.dec(self.enc(x))


def auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores))
    ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    return (ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / (pos.sum() * (~pos).sum())


def anomaly_scores(model, x):
    model.eval()
    with torch.no_grad():
        err = ((model(x) - x) ** 2).mean(1)
    model.train()
    return err.numpy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="ferry.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)

    train = normal_set(cfg["n_normal_train"], cfg["orders"], rng)
    xte, yte = test_set(cfg["n_test"], cfg["orders"], cfg["anomaly_rate"], np.random.default_rng(2718))
    mu, sd = train.mean(0), train.std(0) + 1e-6          # fitted on normal training data only
    train = torch.from_numpy((train - mu) / sd)
    xte = torch.from_numpy((xte - mu) / sd)

    model = SpecAE(cfg["orders"], cfg["hidden"], cfg["latent"])
    ema = copy.deepcopy(model).requires_grad_(False)     # smoothed copy used for scoring
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    max_norm_seen = 0.0
    for ep in range(cfg["epochs"]):
        perm = torch.randperm(len(train))
        for s in range(0, len(train), cfg["batch_size"]):
            x = train[perm[s:s + cfg["batch_size"]]]
            loss = ((model(x) - x) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            norm = nn.utils.clip_grad_norm_(model.parameters(), cfg["clip"])
            max_norm_seen = max(max_norm_seen, norm.item())
            opt.step()
            with torch.no_grad():
                for pe, pm in zip(ema.parameters(), model.parameters()):
                    pe.mul_(0.98).add_(pm.detach(), alpha=0.02)
        if (ep + 1) % 5 == 0:
            print(f"epoch {ep + 1}: recon={loss.item():.4f} grad_norm_max={max_norm_seen:.2f} "
                  f"test_auc={auc(anomaly_scores(ema, xte), yte):.3f}")
    print(f"test_auc={auc(anomaly_scores(ema, xte), yte):.4f}")


if __name__ == "__main__":
    main()
