import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from series import gauge_series


def make_windows(series, window, horizon):
    """Slide over the series; each example is a history window and the level `horizon` days on."""
    xs, ys = [], []
    for i in range(len(series) - window - horizon + 1):
        stop = i + window + horizon
        xs.append(series[i:stop])
        ys.append(series[stop - 1])
    return np.stack(xs), np.array(ys, dtype=np.float32)


class Forecaster(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(1)

    level = gauge_series(cfg["n_days"], cfg["seed"])
    split = cfg["n_days"] - cfg["val_days"]
    mu, sd = level[:split].mean(), level[:split].std()
    z = (level - mu) / sd
    x_tr, y_tr = make_windows(z[:split], cfg["window"], cfg["horizon"])
    x_va, y_va = make_windows(z[split:], cfg["window"], cfg["horizon"])
    x_tr, y_tr, x_va, y_va = map(torch.from_numpy, (x_tr, y_tr, x_va, y_va))

    model = Forecaster(x_tr.shape[1], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    n = len(x_tr)
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(n)
        total = 0.0
        for s in range(0, n, cfg["batch_size"]):
            idx = perm[s:s + cfg["batch_size"]]
            loss = nn.functional.mse_loss(model(x_tr[idx]), y_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1} train_mse {total / n:.4f}")

    model.eval()
    with torch.no_grad():
        mae = (model(x_va) - y_va).abs().mean().item() * sd
    print(f"val_mae_cm={mae:.3f}")


if __name__ == "__main__":
    main()
