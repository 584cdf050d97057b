import argparse
from dataclasses import dataclass, fields

import numpy as np
import torch
import torch.nn as nn

from losses import huber
from weather import simulate


@dataclass
class Config:
    stakes_train: int = 40
    stakes_val: int = 12
    days: int = 120
    hidden: int = 64
    epochs: int = 25
    batch_size: int = 128
    lr: float = 3e-3
    seed: int = 0


def parse() -> Config:
    ap = argparse.ArgumentParser()
    for f in fields(Config):
        ap.add_argument(f"--{f.name.replace('_', '-')}", type=f.type, default=f.default)
    return Config(**vars(ap.parse_args()))


class DepthMLP(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)


def main():
    cfg = parse()
    torch.manual_seed(cfg.seed)
    xtr, ytr = simulate(cfg.stakes_train, cfg.days, seed=10 + cfg.seed)
    xva, yva = simulate(cfg.stakes_val, cfg.days, seed=777)
    mu, sd = xtr.mean(0), xtr.std(0) + 1e-6
    xtr, xva = (xtr - mu) / sd, (xva - mu) / sd
    xtr, ytr, xva, yva = map(torch.from_numpy, (xtr, ytr, xva, yva))
    print(f"train {len(xtr)} rows, val {len(xva)} rows, mean depth {ytr.mean():.1f} cm")

    model = DepthMLP(xtr.shape[1], cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    ds = torch.utils.data.TensorDataset(xtr, ytr)
    dl = torch.utils.data.DataLoader(ds, batch_size=cfg.batch_size, shuffle=True,
                                     generator=torch.Generator().manual_seed(cfg.seed))
    for epoch in range(cfg.epochs):
        model.train()
        run = 0.0
        for xb, yb in dl:
            depth_hat = model(xb)
            loss = huber(depth_hat, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item() * len(xb)
        model.eval()
        with torch.no_grad():
            mae = (model(xva).squeeze(-1) - yva).abs().mean().item()
        if epoch % 5 == 4 or epoch == cfg.epochs - 1:
            print(f"epoch {epoch + 1:3d} huber {run / len(ds):.3f} val_mae {mae:.2f}")
    print(f"val_mae={mae:.3f}")


if __name__ == "__main__":
    main()
