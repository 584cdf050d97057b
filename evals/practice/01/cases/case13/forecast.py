import argparse
import json
import time

import numpy as np
import torch
import torch.nn as nn

from simulate import simulate_log
from features import build_windows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="sauna.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    rng = np.random.default_rng(cfg["seed"])
    torch.manual_seed(cfg["seed"])

    log = simulate_log(cfg["days"], cfg["steps_per_day"], rng)
    cut = (cfg["days"] - cfg["val_days"]) * cfg["steps_per_day"]
    Xtr, ytr = build_windows(log[:cut], cfg["lags"], cfg["horizon"], cfg["smooth_window"])
    Xva, yva = build_windows(log[cut:], cfg["lags"], cfg["horizon"], cfg["smooth_window"])
    mu, sd = Xtr.mean(0), Xtr.std(0) + 1e-6
    ym, ys = ytr.mean(), ytr.std()
    Xtr, Xva = torch.tensor((Xtr - mu) / sd), torch.tensor((Xva - mu) / sd)
    ytr_n = torch.tensor((ytr - ym) / ys)
    print(f"windows: train {len(Xtr)}  val {len(Xva)}  features {Xtr.shape[1]}")

    h = cfg["hidden"]
    model = nn.Sequential(nn.Linear(Xtr.shape[1], h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 1))
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    t0 = time.time()
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr))
        tot = 0.0
        for s in range(0, len(perm), cfg["batch_size"]):
            j = perm[s:s + cfg["batch_size"]]
            loss = nn.functional.smooth_l1_loss(model(Xtr[j]).squeeze(-1), ytr_n[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(j)
        model.eval()
        with torch.no_grad():
            pred = model(Xva).squeeze(-1).numpy() * ys + ym
        mae = float(np.abs(pred - yva).mean())
        print(f"epoch {epoch + 1:2d}  train {tot / len(Xtr):.4f}  val_mae {mae:.3f} %RH")
    persistence = float(np.abs(Xva[:, (cfg['lags'] - 1) * 4].numpy() * sd[(cfg['lags'] - 1) * 4]
                               + mu[(cfg['lags'] - 1) * 4] - yva).mean())
    print(f"persistence baseline mae {persistence:.3f}; {time.time() - t0:.1f}s")
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
