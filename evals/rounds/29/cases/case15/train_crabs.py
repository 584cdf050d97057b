"""Train the crab-count regressor."""
import argparse
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn

from survey import survey_sheets


@dataclass
class Config:
    n_train: int = 3000
    n_val: int = 800
    width: int = 64
    embed: int = 16
    epochs: int = 40
    batch: int = 64
    lr: float = 2e-3
    clip_embed: float = 6.0
    seed: int = 0


class PoolEncoder(nn.Module):
    def __init__(self, n_in, width, embed):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, width), nn.GELU(),
                                 nn.Linear(width, width), nn.GELU(),
                                 nn.Linear(width, embed))

    def forward(self, x):
        return self.net(x)


class CrabRegressor(nn.Module):
    def __init__(self, cfg, n_in):
        super().__init__()
        self.encoder = PoolEncoder(n_in, cfg.width, cfg.embed)
        self.head = nn.Linear(cfg.embed, 1)
        self.clip_embed = cfg.clip_embed

    def embed(self, x):
        z = self.encoder(x)
        # a handful of odd pools (huge area, bad salinity probe) give extreme
        # embeddings; clip them so one sheet cannot dominate a batch
        z = np.clip(z.detach().numpy(), -self.clip_embed, self.clip_embed)
        return torch.from_numpy(z)

    def forward(self, x):
        return self.head(self.embed(x)).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=Config.epochs)
    a = ap.parse_args()
    cfg = Config(seed=a.seed, epochs=a.epochs)
    torch.manual_seed(cfg.seed)

    Xtr, ctr = survey_sheets(cfg.n_train, cfg.seed)
    Xva, cva = survey_sheets(cfg.n_val, cfg.seed + 1)
    mu, sd = Xtr.mean(0), Xtr.std(0)
    Xtr, Xva = torch.from_numpy((Xtr - mu) / sd), torch.from_numpy((Xva - mu) / sd)
    ytr, yva = torch.log1p(torch.from_numpy(ctr)), torch.log1p(torch.from_numpy(cva))

    model = CrabRegressor(cfg, Xtr.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    mse = nn.MSELoss()
    for epoch in range(cfg.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), cfg.batch):
            j = perm[i:i + cfg.batch]
            loss = mse(model(Xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 10 == 0:
            print(f"epoch {epoch:2d} batch mse {loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        rmse = torch.sqrt(mse(model(Xva), yva)).item()
    print(f"baseline (mean) rmse_log: {torch.sqrt(((yva - ytr.mean()) ** 2).mean()).item():.4f}")
    print(f"val_rmse_log={rmse:.4f}")


if __name__ == "__main__":
    main()
