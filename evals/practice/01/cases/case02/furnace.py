#!/usr/bin/env python
import argparse
import copy
import json
import time

import numpy as np
import torch
import torch.nn as nn


def simulate(minutes, rng, tau, offset):
    power = np.clip(np.cumsum(rng.normal(0, 0.03, minutes)) % 1.0 * 0.6 + 0.4, 0, 1)
    door = (rng.random(minutes) < 0.08).astype(float)
    charge = (rng.random(minutes) < 0.01).astype(float)
    T = np.empty(minutes)
    T[0] = 1120.0
    for i in range(1, minutes):
        T[i] = T[i - 1] + 0.05 * (900 + 400 * power[i] - T[i - 1]) - 6 * door[i] - 25 * charge[i] + rng.normal(0, 0.5)
    tc = np.empty(minutes)               # sheathed thermocouple reading
    tc[0] = T[0] + offset
    a = 1 - np.exp(-1 / tau)
    for i in range(1, minutes):
        tc[i] = tc[i - 1] + a * (T[i] + offset - tc[i - 1])
    tc += rng.normal(0, 0.3, minutes)
    return np.stack([tc, power, door, charge], 1).astype(np.float32), T.astype(np.float32)


class SheathInverse(nn.Module):
    """Undo the first-order sheath lag: T ~ tc + tau * d(tc)/dt - offset."""

    def __init__(self, tau, offset):
        super().__init__()
        self.tau = nn.Parameter(torch.tensor(float(tau)))
        self.offset = nn.Parameter(torch.tensor(float(offset)))

    def forward(self, tc):                     # tc: (B, L) raw readings
        d = torch.diff(tc, dim=1, prepend=tc[:, :1])
        return tc + self.tau * d - self.offset


class Forecaster(nn.Module):
    def __init__(self, lags, calib):
        super().__init__()
        self.sheath = SheathInverse(calib["sheath_tau_min"], calib["offset_c"])
        self.sheath.requires_grad_(False)      # calibrated against the pyrometer; not refit here
        self.net = nn.Sequential(nn.Linear(lags * 4, 96), nn.ReLU(), nn.Linear(96, 96), nn.ReLU(), nn.Linear(96, 1))

    def forward(self, x):                      # x: (B, L, 4), temps in units of 100 C
        est = self.sheath(x[..., 0] * 100.0) / 100.0
        last = est[:, -1:]
        feats = torch.cat([est - last, x[..., 1:].flatten(1)], dim=1)
        return last.squeeze(1) + self.net(feats).squeeze(1)


def windows(obs, T, lags, horizon):
    X = np.stack([obs[t - lags:t] for t in range(lags, len(T) - horizon)])
    y = np.array([T[t - 1 + horizon] for t in range(lags, len(T) - horizon)], np.float32)
    X[..., 0] /= 100.0
    return torch.tensor(X), torch.tensor(y / 100.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="furnace.json")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    cfg = json.load(open(a.config))
    calib = json.load(open("thermo_calibration.json"))
    if a.seed is not None:
        cfg["seed"] = a.seed
    rng = np.random.default_rng(cfg["seed"])
    torch.manual_seed(cfg["seed"])

    obs, T = simulate(cfg["hours"] * 60, rng, tau=3.0, offset=-4.0)
    cut = (cfg["hours"] - cfg["val_hours"]) * 60
    Xtr, ytr = windows(obs[:cut], T[:cut], cfg["lags"], cfg["horizon"])
    Xva, yva = windows(obs[cut:], T[cut:], cfg["lags"], cfg["horizon"])

    model = Forecaster(cfg["lags"], calib)
    ema = copy.deepcopy(model)
    for p in ema.parameters():
        p.requires_grad_(False)
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=cfg["lr"])
    t0 = time.time()
    for ep in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(ytr))
        tot, max_norm = 0.0, 0.0
        for s in range(0, len(perm), cfg["batch_size"]):
            j = perm[s:s + cfg["batch_size"]]
            loss = nn.functional.mse_loss(model(Xtr[j]), ytr[j])
            opt.zero_grad()
            loss.backward()
            norm = nn.utils.clip_grad_norm_(model.parameters(), cfg["clip_norm"])   # guard against charging spikes
            max_norm = max(max_norm, norm.item())
            opt.step()
            with torch.no_grad():
                for pe, pm in zip(ema.parameters(), model.parameters()):
                    pe.mul_(cfg["ema_decay"]).add_(pm.detach(), alpha=1 - cfg["ema_decay"])
            tot += loss.item() * len(j)
        ema.eval()
        with torch.no_grad():
            rmse = ((ema(Xva) - yva) ** 2).mean().sqrt().item() * 100.0
        print(f"epoch {ep + 1:2d} train_mse {tot / len(ytr):.5f} max_grad_norm {max_norm:.2f} val_rmse {rmse:.2f} C")
    persist = ((Xva[:, -1, 0] - yva) ** 2).mean().sqrt().item() * 100.0
    print(f"persistence rmse {persist:.2f} C; {time.time() - t0:.1f}s")
    print(f"val_rmse_c={rmse:.3f}")


if __name__ == "__main__":
    main()
