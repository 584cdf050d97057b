import argparse
import json
from dataclasses import dataclass, fields

import numpy as np
import torch
import torch.nn as nn

from sessions import simulate


@dataclass
class Config:
    seed: int = 0
    n_sessions: int = 5000
    trunk_width: int = 64
    head_width: int = 16
    freeze_trunk: bool = False
    lr: float = 1e-3
    epochs: int = 30
    batch_size: int = 64

    @classmethod
    def load(cls, path):
        raw = json.load(open(path))
        return cls(**{f.name: raw[f.name] for f in fields(cls) if f.name in raw})


class RateModel(nn.Module):
    def __init__(self, n_in, trunk_width, head_width):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(n_in, trunk_width), nn.ReLU(),
            nn.Linear(trunk_width, head_width), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(head_width, head_width), nn.ReLU(), nn.Linear(head_width, 1))

    def forward(self, x):
        return self.head(self.trunk(x)).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="train_config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = Config.load(args.config)
    if args.seed is not None:
        cfg.seed = args.seed
    torch.manual_seed(cfg.seed)

    X, counts = simulate(cfg.n_sessions, cfg.seed)
    y = np.log1p(counts)
    n_val = len(X) // 5
    mu, sd = X[n_val:].mean(0), X[n_val:].std(0) + 1e-6
    X = (X - mu) / sd
    Xtr, ytr = torch.from_numpy(X[n_val:]), torch.from_numpy(y[n_val:])
    Xva, yva = torch.from_numpy(X[:n_val]), torch.from_numpy(y[:n_val])

    model = RateModel(X.shape[1], cfg.trunk_width, cfg.head_width)
    if cfg.freeze_trunk:
        # trunk weights come from the previous season's run when fine-tuning
        for p in model.trunk.parameters():
            p.requires_grad_(False)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=cfg.lr)

    for epoch in range(cfg.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        tot = 0.0
        for i in range(0, len(perm), cfg.batch_size):
            b = perm[i:i + cfg.batch_size]
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(Xtr[b]), ytr[b])
            loss.backward()
            opt.step()
            tot += loss.item() * len(b)
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1} train_mse={tot / len(perm):.4f}")

    model.eval()
    with torch.no_grad():
        mae = (model(Xva) - yva).abs().mean().item()
    print(f"val_mae_log={mae:.4f}")


if __name__ == "__main__":
    main()
