import os
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn

GRADES = 5


@dataclass
class Config:
    n: int = 3000
    epochs: int = 30
    lr: float = 5e-3
    hidden: int = 32
    seed: int = int(os.environ.get("SEED", 17))


def ferment_logs(cfg):
    rng = np.random.default_rng(cfg.seed)
    hours = rng.uniform(12, 48, cfg.n)
    temp = rng.uniform(18, 28, cfg.n)
    grains = rng.uniform(0.02, 0.1, cfg.n)
    fat = rng.uniform(0.5, 4.0, cfg.n)
    ph = rng.uniform(0.5, 2.0, cfg.n)
    score = -((hours - 24) / 8) ** 2 - ((temp - 22) / 3) ** 2 + 10 * grains + 0.3 * fat + ph
    score = score + rng.normal(0, 0.3, cfg.n)
    grade = np.digitize(score, np.quantile(score, [0.2, 0.4, 0.6, 0.8]))
    X = np.stack([(hours - 30) / 10, (temp - 23) / 3, grains * 10, fat, ph], 1)
    return torch.tensor(X, dtype=torch.float32), torch.tensor(grade)


class PropOdds(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(5, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.theta = nn.Parameter(torch.linspace(-1.5, 1.5, GRADES - 1))

    def forward(self, x):
        # logit of P(grade > k) for k = 0..GRADES-2
        return self.f(x) - self.theta.sort().values


def loss_fn(logits, y):
    above = (y[:, None] > torch.arange(GRADES - 1)).float()
    return nn.functional.binary_cross_entropy_with_logits(logits, above)


def grade_from(logits):
    p_above = torch.sigmoid(logits)
    return (p_above > 0).sum(1)


def main():
    cfg = Config()
    torch.manual_seed(cfg.seed)
    X, y = ferment_logs(cfg)
    cut = int(cfg.n * 0.8)
    model = PropOdds(cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    for ep in range(cfg.epochs):
        perm = torch.randperm(cut)
        for i in range(0, cut, 64):
            idx = perm[i:i + 64]
            loss = loss_fn(model(X[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            acc = (grade_from(model(X[cut:])) == y[cut:]).float().mean().item()
        if ep % 5 == 4:
            print(f"epoch {ep+1} loss {loss.item():.4f} val_acc {acc:.3f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
