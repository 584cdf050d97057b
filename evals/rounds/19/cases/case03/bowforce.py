#!/usr/bin/env python
"""Bow pressure regression from string-vibration spectra (single script)."""
import argparse
import json
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn


@dataclass
class DataCfg:
    n_train: int
    n_val: int
    n_partials: int
    noise: float


def synth_strings(cfg: DataCfg, n, rng):
    """Return (log-amplitude spectra, pressure)."""
    k = np.arange(1, cfg.n_partials + 1)
    pressure = rng.uniform(0.2, 2.0, size=n)          # N
    velocity = rng.uniform(0.05, 0.5, size=n)         # m/s
    position = rng.uniform(0.06, 0.2, size=n)         # bow-bridge distance (fraction)
    # sawtooth-ish Helmholtz motion, brightness grows with pressure / velocity
    bright = 1.0 + 1.5 * np.log1p(pressure[:, None] / velocity[:, None]) / 3.0
    amp = velocity[:, None] / k[None, :] ** (2.0 / bright)
    amp *= np.abs(np.sin(np.pi * k[None, :] * position[:, None])) + 0.05
    scratch = 0.002 * (pressure[:, None] ** 2) * rng.random((n, cfg.n_partials))
    spec = np.log(amp + scratch + 1e-4) + cfg.noise * rng.normal(size=amp.shape)
    feats = np.concatenate([spec, velocity[:, None], position[:, None]], axis=1)
    return feats.astype(np.float32), pressure.astype(np.float32)


class PressureHead(nn.Module):
    def __init__(self, d_in, hidden, dropout):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.SiLU(), nn.Dropout(dropout),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)


def smooth_l2(pred, target):
    # plain squared error; kept as a function so we can swap in Huber later
    return ((pred - target) ** 2).mean()


def r2_score(pred, target):
    ss_res = ((pred - target) ** 2).sum()
    ss_tot = ((target - target.mean()) ** 2).sum()
    return 1.0 - (ss_res / ss_tot).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)

    dcfg = DataCfg(**cfg["data"])
    Xtr, ytr = synth_strings(dcfg, dcfg.n_train, rng)
    Xva, yva = synth_strings(dcfg, dcfg.n_val, np.random.default_rng(1234))
    mu, sd = Xtr.mean(0), Xtr.std(0) + 1e-6
    Xtr, Xva = (Xtr - mu) / sd, (Xva - mu) / sd
    Xtr, ytr, Xva, yva = map(torch.from_numpy, (Xtr, ytr, Xva, yva))

    m = cfg["model"]
    model = PressureHead(Xtr.shape[1], m["hidden"], m["dropout"])
    t = cfg["train"]
    opt = torch.optim.AdamW(model.parameters(), lr=t["lr"], weight_decay=t["weight_decay"])

    for epoch in range(t["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr))
        run = 0.0
        for s in range(0, len(Xtr), t["batch_size"]):
            j = perm[s:s + t["batch_size"]]
            pred = model(Xtr[j])
            loss = smooth_l2(pred, ytr[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item() * len(j)
        if epoch % 5 == 4 or epoch == t["epochs"] - 1:
            model.eval()
            with torch.no_grad():
                r2 = r2_score(model(Xva).squeeze(1), yva)
            print(f"epoch {epoch + 1:3d}  train_mse={run / len(Xtr):.4f}  val_r2={r2:.3f}")

    print(f"val_r2={r2:.4f}")


if __name__ == "__main__":
    main()
