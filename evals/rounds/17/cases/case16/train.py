import argparse
import json

import numpy as np
import torch
from torch import nn

from hydro import simulate_all
from windows import make_split


class FlowMLP(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)


def r2(pred, y):
    return 1.0 - float(((pred - y) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)
    if args.seed is not None:
        cfg["seed"] = args.seed

    torch.manual_seed(cfg["seed"])
    gauges = simulate_all(cfg["seed"], cfg["years"])
    n_days = 365 * cfg["years"]
    split_day = 365 * (cfg["years"] - 1)
    Xtr, ytr = make_split(gauges, cfg["window"], cfg["horizon"], 0, split_day)
    Xva, yva = make_split(gauges, cfg["window"], cfg["horizon"], split_day, n_days)
    print(f"train windows={len(Xtr)} val windows={len(Xva)} features={Xtr.shape[1]}")

    Xtr, ytr = torch.from_numpy(Xtr), torch.from_numpy(ytr)
    Xva, yva = torch.from_numpy(Xva), torch.from_numpy(yva)

    model = FlowMLP(Xtr.shape[1], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    loss_fn = nn.MSELoss()
    g = torch.Generator().manual_seed(cfg["seed"])
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr), generator=g)
        total = 0.0
        for i in range(0, len(perm), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            opt.zero_grad()
            loss = loss_fn(model(Xtr[idx]), ytr[idx])
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if epoch % 5 == 4 or epoch == cfg["epochs"] - 1:
            model.eval()
            with torch.no_grad():
                val = r2(model(Xva), yva)
            print(f"epoch {epoch + 1:3d} train_mse={total / len(Xtr):.4f} val_r2={val:.4f}")

    model.eval()
    with torch.no_grad():
        final = r2(model(Xva), yva)
    print(f"val_r2={final:.4f}")


if __name__ == "__main__":
    main()
