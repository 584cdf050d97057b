"""Noise-level regression on synthetic clips."""
import argparse
import dataclasses
import time
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Config:
    clip_len: int = 512
    sample_rate: int = 4000
    n_train: int = 3000
    n_val: int = 600
    epochs: int = 10
    batch_size: int = 64
    lr: float = 2e-3
    channels: int = 24
    seed: int = 0


# ---------------------------------------------------------------- data

def synth_clip(rng, cfg):
    t = np.arange(cfg.clip_len) / cfg.sample_rate
    x = np.zeros(cfg.clip_len)
    for _ in range(rng.integers(1, 4)):
        kind = rng.integers(0, 3)
        amp = rng.uniform(0.2, 1.0)
        if kind == 0:
            x += amp * np.sin(2 * np.pi * rng.uniform(80, 1500) * t + rng.uniform(0, 6.3))
        elif kind == 1:
            f0, f1 = rng.uniform(100, 1800, 2)
            x += amp * np.sin(2 * np.pi * (f0 * t + (f1 - f0) * t ** 2 / (2 * t[-1])))
        else:
            pos = rng.integers(0, cfg.clip_len - 8)
            x[pos:pos + 8] += amp * rng.choice([-1, 1]) * 3
    log_sigma = rng.uniform(-2.0, 0.0)
    x += rng.normal(0, 10 ** log_sigma, cfg.clip_len)
    return x.astype(np.float32), np.float32(log_sigma)


def make_set(n, cfg, seed):
    rng = np.random.default_rng(seed)
    clips, targets = zip(*(synth_clip(rng, cfg) for _ in range(n)))
    return torch.from_numpy(np.stack(clips))[:, None], torch.from_numpy(np.array(targets))


# ---------------------------------------------------------------- model

class NoiseFloorNet(nn.Module):
    def __init__(self, channels):
        super().__init__()
        c = channels
        self.features = nn.Sequential(
            nn.Conv1d(1, c, 9, stride=2, padding=4), nn.GELU(),
            nn.Conv1d(c, c, 9, stride=2, padding=4), nn.GELU(),
            nn.Conv1d(c, c, 9, stride=2, padding=4),
        )
        self.pool = nn.AdaptiveAvgPool1d(8)
        self.regressor = None

    def forward(self, x):
        # log-amplitude features: noise level spans two decades
        h = self.pool(self.features(x) ** 2)
        h = torch.log(h + 1e-6).flatten(1)
        # head sized from the pooled feature map
        self.regressor = nn.Sequential(nn.Linear(h.shape[1], 64), nn.GELU(), nn.Linear(64, 1))
        return self.regressor(h).squeeze(-1)


# ---------------------------------------------------------------- loop

def evaluate(model, x, y):
    model.eval()
    with torch.no_grad():
        mae = (model(x) - y).abs().mean().item()
    model.train()
    return mae


def train(cfg: Config):
    torch.manual_seed(cfg.seed)
    xtr, ytr = make_set(cfg.n_train, cfg, cfg.seed)
    xva, yva = make_set(cfg.n_val, cfg, cfg.seed + 99)
    model = NoiseFloorNet(cfg.channels)
    model(xtr[:2])  # materialise the head before building the optimizer
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    loader = DataLoader(TensorDataset(xtr, ytr), batch_size=cfg.batch_size, shuffle=True)
    loss_fn = nn.SmoothL1Loss(beta=0.1)
    t0 = time.time()
    for epoch in range(cfg.epochs):
        tot = 0.0
        for xb, yb in loader:
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(yb)
        print(f"[{time.time() - t0:5.1f}s] epoch {epoch + 1} train {tot / len(ytr):.4f} "
              f"val_mae {evaluate(model, xva, yva):.4f}")
    return evaluate(model, xva, yva)


def parse_args():
    ap = argparse.ArgumentParser()
    for f in dataclasses.fields(Config):
        ap.add_argument("--" + f.name.replace("_", "-"), type=f.type if callable(f.type) else eval(f.type),
                        default=f.default)
    return Config(**vars(ap.parse_args()))


if __name__ == "__main__":
    cfg = parse_args()
    print(cfg)
    mae = train(cfg)
    print(f"val_mae_log10={mae:.4f}")
