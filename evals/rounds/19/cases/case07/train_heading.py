import argparse
import json
import math

import numpy as np
import torch
import torch.nn as nn

from angles import to_angle, wrap_to_pi


def simulate(n, rng):
    wind_dir = rng.uniform(-math.pi, math.pi, n)
    wind_speed = rng.uniform(0, 10, n)
    track = rng.uniform(-math.pi, math.pi, n)
    thermal_bearing = rng.uniform(-math.pi, math.pi, n)
    climb = rng.uniform(0, 1, n)
    # pilots crab into the wind and bend toward the thermal when the climb is good
    crab = 0.6 * np.tanh(wind_speed / 6) * np.sin(wind_dir - track)
    pull = climb * 0.8 * np.sin(thermal_bearing - track)
    heading = track + crab + pull + rng.normal(0, 0.05, n)
    heading = (heading + math.pi) % (2 * math.pi) - math.pi
    feats = np.stack([np.sin(wind_dir), np.cos(wind_dir), wind_speed / 10, np.sin(track), np.cos(track),
                      np.sin(thermal_bearing), np.cos(thermal_bearing), climb], 1)
    return torch.tensor(feats, dtype=torch.float32), torch.tensor(heading, dtype=torch.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cfg", default="heading.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.cfg))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    Xtr, ytr = simulate(cfg["n_train"], np.random.default_rng(seed))
    Xva, yva = simulate(cfg["n_val"], np.random.default_rng(31337))

    h = cfg["hidden"]
    net = nn.Sequential(nn.Linear(8, h), nn.Tanh(), nn.Linear(h, h), nn.Tanh(), nn.Linear(h, 2))
    opt = torch.optim.Adam(net.parameters(), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(Xtr))
        for s in range(0, len(Xtr), cfg["batch"]):
            j = perm[s:s + cfg["batch"]]
            sc = net(Xtr[j])
            err = wrap_to_pi(to_angle(sc) - ytr[j])
            unit = ((sc ** 2).sum(-1) - 1.0) ** 2          # keep (sin, cos) near the unit circle
            loss = (err ** 2).mean() + cfg["unit_penalty"] * unit.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            deg = wrap_to_pi(to_angle(net(Xva)) - yva).abs().mean().item() * 180 / math.pi
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1}: loss={loss.item():.4f} val_mean_abs_err_deg={deg:.2f}")
    print(f"val_mean_abs_err_deg={deg:.3f}")


if __name__ == "__main__":
    main()
