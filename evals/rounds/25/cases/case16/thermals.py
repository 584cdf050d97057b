"""Thermal-lift forecaster for the launch site."""
import argparse
import copy
import json

import numpy as np
import torch
import torch.nn as nn


def station_record(days, rng):
    """5-minute station record; 144 steps per day of daylight 06:00-18:00."""
    steps = 144
    rec, lift = [], []
    for d in range(days):
        cloud = rng.beta(2, 3)
        t = np.arange(steps) / steps
        sun = np.clip(np.sin(np.pi * t), 0, None) * (1 - 0.7 * cloud) + rng.normal(0, 0.03, steps)
        ground = 10 + 14 * np.cumsum(sun) / steps * 2 + rng.normal(0, 0.3, steps)
        dew = 6 + rng.normal(0, 1.5) + rng.normal(0, 0.2, steps)
        wind = np.abs(rng.normal(3, 1.5) + np.cumsum(rng.normal(0, 0.15, steps)))
        spread = ground - dew
        l = 0.18 * spread * sun - 0.25 * np.maximum(wind - 4, 0) + rng.normal(0, 0.15, steps)
        rec.append(np.stack([ground, dew, wind, sun], 1))
        lift.append(np.clip(l, 0, None))
    return np.stack(rec).astype(np.float32), np.stack(lift).astype(np.float32)


def windows(rec, lift, lookback, horizon):
    xs, ys, nxt = [], [], []
    for d in range(rec.shape[0]):
        for t in range(lookback, rec.shape[1] - horizon):
            xs.append(rec[d, t - lookback:t])
            nxt.append(rec[d, t])                     # next station reading
            ys.append(lift[d, t:t + horizon].mean())  # mean lift over the next 15 min
    return np.stack(xs), np.stack(nxt), np.asarray(ys, dtype=np.float32)


class StationEncoder(nn.Module):
    def __init__(self, n_in, hidden=48):
        super().__init__()
        self.gru = nn.GRU(n_in, hidden, batch_first=True)

    def forward(self, x):
        _, h = self.gru(x)
        return h[-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="thermals.json")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    cfg = json.load(open(a.config))
    if a.seed is not None:
        cfg["seed"] = a.seed
    torch.manual_seed(cfg["seed"])
    rng = np.random.default_rng(2)

    rec, lift = station_record(cfg["days"], rng)
    mu, sd = rec.reshape(-1, 4).mean(0), rec.reshape(-1, 4).std(0)
    rec = (rec - mu) / sd
    x, nxt, y = map(torch.from_numpy, windows(rec, lift, cfg["lookback"], cfg["horizon"]))
    n_days_val = cfg["days"] // 5
    per_day = len(x) // cfg["days"]
    cut = len(x) - n_days_val * per_day
    xtr, ytr, xva, yva = x[:cut], y[:cut], x[cut:], y[cut:]

    # ---- stage 1: pretrain the encoder on next-step prediction (no lift labels)
    enc = StationEncoder(4)
    nxt_head = nn.Linear(48, 4)
    opt = torch.optim.Adam(list(enc.parameters()) + list(nxt_head.parameters()), lr=cfg["lr_pretrain"])
    for ep in range(cfg["pretrain_epochs"]):
        perm = torch.randperm(len(x))
        for i in range(0, len(perm), 256):
            b = perm[i:i + 256]
            loss = nn.functional.mse_loss(nxt_head(enc(x[b])), nxt[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"pretrain {ep}: next-step mse {loss.item():.4f}")

    # ---- stage 2: lift head on top of the fixed encoder
    enc.requires_grad_(False)
    enc.eval()
    head = nn.Sequential(nn.Linear(48 + 4, 64), nn.ReLU(), nn.Linear(64, 1))
    ema_head = copy.deepcopy(head)
    for p in ema_head.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam(head.parameters(), lr=cfg["lr"])

    def predict(h, xb):
        z = torch.cat([enc(xb), xb[:, -1]], dim=1)
        return h(z).squeeze(1)

    for ep in range(cfg["epochs"]):
        head.train()
        perm = torch.randperm(len(xtr))
        for i in range(0, len(perm), cfg["batch_size"]):
            b = perm[i:i + cfg["batch_size"]]
            loss = nn.functional.mse_loss(predict(head, xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            with torch.no_grad():
                for pe, p in zip(ema_head.parameters(), head.parameters()):
                    pe.mul_(cfg["ema_decay"]).add_(p.detach(), alpha=1 - cfg["ema_decay"])
        with torch.no_grad():
            rmse = (predict(ema_head, xva) - yva).pow(2).mean().sqrt().item()
        if ep % 5 == 4:
            print(f"epoch {ep + 1}: train_mse {loss.item():.4f}  val_rmse(ema) {rmse:.4f}")
    print(f"(predicting the train mean: {(yva - ytr.mean()).pow(2).mean().sqrt().item():.4f})")
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
