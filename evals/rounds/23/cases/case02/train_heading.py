"""Train the heading regressor (cos/sin head, EMA evaluation)."""
import argparse
import copy
import json
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from sessions import simulate


class HeadingNet(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_in, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
        )
        self.out = nn.Linear(hidden, 2)

    def forward(self, x):
        v = self.out(self.body(x))
        return F.normalize(v, dim=-1)  # unit (cos, sin)


def cosine_distance(pred_cs, theta):
    target = torch.stack([torch.cos(theta), torch.sin(theta)], dim=-1)
    return (1.0 - (pred_cs * target).sum(-1)).mean()


def angular_mae_deg(pred_cs, theta):
    pred = torch.atan2(pred_cs[:, 1], pred_cs[:, 0])
    diff = torch.remainder(pred - theta + math.pi, 2 * math.pi) - math.pi
    return diff.abs().mean().item() * 180.0 / math.pi


class EMA:
    """Shadow copy of the weights, never trained directly."""

    def __init__(self, model, decay):
        self.decay = decay
        self.shadow = copy.deepcopy(model)
        self.shadow.requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p.detach(), alpha=1.0 - self.decay)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="heading.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)

    X, theta = simulate(cfg["n_sessions"], seed=7)
    rng = np.random.default_rng(cfg["seed"])
    perm = rng.permutation(len(X))
    n_val = int(len(X) * cfg["val_frac"])
    Xtr, ytr = torch.from_numpy(X[perm[n_val:]]), torch.from_numpy(theta[perm[n_val:]])
    Xva, yva = torch.from_numpy(X[perm[:n_val]]), torch.from_numpy(theta[perm[:n_val]])

    model = HeadingNet(X.shape[1], cfg["hidden"])
    ema = EMA(model, cfg["ema_decay"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])

    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        model.train()
        order = torch.randperm(len(Xtr))
        running, max_norm = 0.0, 0.0
        for i in range(0, len(order), bs):
            idx = order[i:i + bs]
            loss = cosine_distance(model(Xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            norm = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["clip_norm"])
            max_norm = max(max_norm, float(norm))
            opt.step()
            ema.update(model)
            running += loss.item() * len(idx)
        ema.shadow.eval()
        with torch.no_grad():
            mae = angular_mae_deg(ema.shadow(Xva), yva)
        print(f"epoch {epoch + 1:2d} loss={running / len(Xtr):.4f} max_grad_norm={max_norm:.2f} val_mae_deg={mae:.2f}")

    print(f"METRIC mae_deg={mae:.3f}")


if __name__ == "__main__":
    main()
