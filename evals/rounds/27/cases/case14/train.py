import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from hydro import simulate, make_windows, make_targets, chronological_split


class Forecaster(nn.Module):
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
    return 1.0 - ((pred - y) ** 2).sum() / ((y - y.mean()) ** 2).sum()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    np.random.seed(cfg["seed"])

    rain, q = simulate(cfg["hours"], cfg["seed"])
    X = make_windows(rain, q, cfg["lookback"], cfg["horizon"])
    y = make_targets(q, cfg["lookback"], cfg["horizon"])
    (Xtr, ytr), (Xva, yva) = chronological_split(X, y, cfg["val_fraction"], gap=cfg["lookback"])

    mu, sd = Xtr.mean(0), Xtr.std(0) + 1e-6
    ymu, ysd = ytr.mean(), ytr.std()
    Xtr = torch.tensor((Xtr - mu) / sd)
    Xva = torch.tensor((Xva - mu) / sd)
    ytr = torch.tensor((ytr - ymu) / ysd)
    yva = torch.tensor((yva - ymu) / ysd)
    print(f"train windows {len(Xtr)}  val windows {len(Xva)}")

    model = Forecaster(Xtr.shape[1], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    loss_fn = nn.MSELoss()
    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(Xtr))
        total = 0.0
        for i in range(0, len(Xtr), bs):
            idx = perm[i:i + bs]
            opt.zero_grad()
            loss = loss_fn(model(Xtr[idx]), ytr[idx])
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            vr2 = r2(model(Xva), yva).item()
        if epoch % 5 == 0 or epoch == cfg["epochs"] - 1:
            print(f"epoch {epoch:3d} train_mse {total / len(Xtr):.4f} val_r2 {vr2:.4f}")
    print(f"val_r2={vr2:.4f}")


if __name__ == "__main__":
    main()
