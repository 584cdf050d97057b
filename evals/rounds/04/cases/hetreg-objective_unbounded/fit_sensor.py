"""Fit mean + precision of a sensor's response; report held-out Gaussian NLL."""
import argparse
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class Cfg:
    n_train: int = 2000
    n_val: int = 1000
    hidden: int = 64
    epochs: int = 100
    batch_size: int = 128
    lr: float = 3e-3
    seed: int = 0


def readings(n, rng):
    x = rng.uniform(-1.0, 1.0, size=(n, 1))
    mean = np.tanh(2.5 * x) + 0.3 * x ** 2
    std = 0.03 + 0.25 * x ** 2
    y = mean + std * rng.standard_normal((n, 1))
    return torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)


class MeanPrecisionNet(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(1, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU())
        self.mean = nn.Linear(hidden, 1)
        self.raw_prec = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.trunk(x)
        prec = F.softplus(self.raw_prec(h)) + 1e-4
        return self.mean(h), prec


def gaussian_nll(mean, prec, target):
    """Negative log-likelihood of N(mean, 1/prec), up to the constant."""
    return 0.5 * (prec * (target - mean) ** 2 + torch.log(prec)).mean()


def main():
    cfg = Cfg()
    ap = argparse.ArgumentParser()
    for k, v in vars(cfg).items():
        ap.add_argument(f"--{k.replace('_', '-')}", type=type(v), default=v)
    cfg = Cfg(**vars(ap.parse_args()))

    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(2024)
    xtr, ytr = readings(cfg.n_train, rng)
    xva, yva = readings(cfg.n_val, rng)

    model = MeanPrecisionNet(cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    scorer = nn.GaussianNLLLoss(full=True)

    for epoch in range(1, cfg.epochs + 1):
        perm = torch.randperm(cfg.n_train)
        for i in range(0, cfg.n_train, cfg.batch_size):
            idx = perm[i:i + cfg.batch_size]
            mean, prec = model(xtr[idx])
            loss = gaussian_nll(mean, prec, ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 25 == 0 or epoch == cfg.epochs:
            with torch.no_grad():
                mean, prec = model(xva)
                val_nll = scorer(mean, yva, 1.0 / prec).item()
                rmse = (mean - yva).pow(2).mean().sqrt().item()
            print(f"epoch {epoch:4d} train_loss {loss.item():.4f} val_rmse {rmse:.4f} val_nll {val_nll:.4f}")
    print(f"val_nll={val_nll:.4f}")


if __name__ == "__main__":
    main()
