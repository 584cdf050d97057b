import argparse
from dataclasses import dataclass, fields

import numpy as np
import torch

from .masking import hide_readings, masked_mse
from .model import GapFiller
from .stations import simulate_network, windows


@dataclass
class TrainConfig:
    window: int = 24
    stride: int = 3
    p_missing: float = 0.25
    hidden: int = 256
    epochs: int = 15
    batch_size: int = 64
    lr: float = 1e-3
    seed: int = 0


def parse_config():
    ap = argparse.ArgumentParser()
    for f in fields(TrainConfig):
        ap.add_argument(f"--{f.name.replace('_', '-')}", type=f.type, default=f.default)
    return TrainConfig(**vars(ap.parse_args()))


def main():
    cfg = parse_config()
    torch.manual_seed(cfg.seed)
    temps = simulate_network(seed=5)
    split = int(0.8 * len(temps))
    mean, std = temps[:split].mean(), temps[:split].std()
    norm = (temps - mean) / std
    tr = torch.from_numpy(windows(norm[:split], cfg.window, cfg.stride))
    va = torch.from_numpy(windows(norm[split:], cfg.window, cfg.window))
    # fixed gaps for validation so every run is scored on the same holes
    va_in, va_obs = hide_readings(va, cfg.p_missing, torch.Generator().manual_seed(2024))
    print(f"train windows {tuple(tr.shape)}  val windows {tuple(va.shape)}  std {std:.2f} C")

    model = GapFiller(cfg.window, tr.shape[2], cfg.hidden)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    gen = torch.Generator().manual_seed(cfg.seed)

    def val_rmse():
        model.eval()
        with torch.no_grad():
            pred = model(va_in, va_obs)
        model.train()
        return float(np.sqrt(masked_mse(pred, va, 1.0 - va_obs).item())) * std

    for epoch in range(cfg.epochs):
        perm = torch.randperm(len(tr), generator=gen)
        for i in range(0, len(perm), cfg.batch_size):
            x = tr[perm[i:i + cfg.batch_size]]
            x_in, observed = hide_readings(x, cfg.p_missing, gen)
            pred = model(x_in, observed)
            loss = masked_mse(pred, x, observed)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 5 == 4:
            print(f"epoch {epoch + 1:2d} loss={loss.item():.4f} val_rmse_gaps={val_rmse():.3f} C")

    print(f"val_rmse={val_rmse():.4f}")


if __name__ == "__main__":
    main()
