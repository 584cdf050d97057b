"""Next-day demand forecaster: one global MLP over all stores."""
from dataclasses import dataclass
import argparse

import numpy as np
import torch
import torch.nn as nn

from features import build_store_frame
from simulate import simulate_stores


@dataclass
class Config:
    n_stores: int = 24
    n_days: int = 600
    val_days: int = 120
    n_lags: int = 14
    roll_window: int = 7
    hidden: int = 64
    epochs: int = 30
    batch_size: int = 256
    lr: float = 3e-3
    weight_decay: float = 1e-5
    seed: int = 0


def make_datasets(cfg):
    demand, promo = simulate_stores(cfg.n_stores, cfg.n_days, seed=7 + cfg.seed)
    cut = cfg.n_days - cfg.val_days
    Xtr, ytr, Xva, yva = [], [], [], []
    for s in range(cfg.n_stores):
        X, y, t = build_store_frame(demand[s], promo[s], cfg.n_lags, cfg.roll_window)
        store = np.zeros((len(X), cfg.n_stores))
        store[:, s] = 1.0
        X = np.concatenate([X, store], axis=1)
        tr = t < cut
        Xtr.append(X[tr]); ytr.append(y[tr])
        Xva.append(X[~tr]); yva.append(y[~tr])
    Xtr, ytr = np.concatenate(Xtr), np.concatenate(ytr)
    Xva, yva = np.concatenate(Xva), np.concatenate(yva)
    mu, sd = Xtr.mean(0), Xtr.std(0) + 1e-6
    y_mu, y_sd = ytr.mean(), ytr.std()
    to_t = lambda a: torch.tensor(a, dtype=torch.float32)
    return (to_t((Xtr - mu) / sd), to_t((ytr - y_mu) / y_sd),
            to_t((Xva - mu) / sd), to_t(yva), (y_mu, y_sd))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=Config.epochs)
    p.add_argument("--seed", type=int, default=Config.seed)
    cfg = Config(**vars(p.parse_args()))
    torch.manual_seed(cfg.seed)

    Xtr, ytr, Xva, yva, (y_mu, y_sd) = make_datasets(cfg)
    print(f"train rows {len(Xtr)}  val rows {len(Xva)}  features {Xtr.shape[1]}")

    model = nn.Sequential(nn.Linear(Xtr.shape[1], cfg.hidden), nn.ReLU(),
                          nn.Linear(cfg.hidden, cfg.hidden), nn.ReLU(),
                          nn.Linear(cfg.hidden, 1))
    opt = torch.optim.AdamW(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)

    g = torch.Generator().manual_seed(cfg.seed)
    for epoch in range(cfg.epochs):
        perm = torch.randperm(len(Xtr), generator=g)
        run = 0.0
        for i in range(0, len(Xtr), cfg.batch_size):
            idx = perm[i:i + cfg.batch_size]
            pred = model(Xtr[idx]).squeeze(-1)
            loss = nn.functional.mse_loss(pred, ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item() * len(idx)
        if epoch % 5 == 4 or epoch == cfg.epochs - 1:
            with torch.no_grad():
                pv = model(Xva).squeeze(-1) * y_sd + y_mu
                mae = (pv - yva).abs().mean().item()
            print(f"epoch {epoch + 1:3d} train_mse={run / len(Xtr):.4f} val_mae={mae:.3f}")

    with torch.no_grad():
        pv = model(Xva).squeeze(-1) * y_sd + y_mu
        naive = (Xva[:, 0] * 0).add(yva.mean())
    print(f"baseline (val mean) mae={(naive - yva).abs().mean().item():.3f}")
    print(f"val_mae={(pv - yva).abs().mean().item():.3f}")


if __name__ == "__main__":
    main()
