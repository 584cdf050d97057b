import argparse
import json

import numpy as np
import torch
from torch import nn

from simulate import simulate
from windows import make_inputs, make_targets


def r2_score(pred, target):
    ss_res = ((pred - target) ** 2).sum()
    ss_tot = ((target - target.mean()) ** 2).sum()
    return 1.0 - ss_res / ss_tot


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

    rain, level = simulate(cfg["days"], seed=cfg["seed"])
    X = make_inputs(level, rain, cfg["lookback"], cfg["horizon"])
    y = make_targets(level, cfg["lookback"], cfg["horizon"])
    assert len(X) == len(y), (len(X), len(y))
    y_scale = float(y[: int(0.8 * len(y))].std())
    y = y / y_scale

    n_train = int(0.8 * len(X))
    Xtr, ytr = torch.from_numpy(X[:n_train]), torch.from_numpy(y[:n_train])
    Xva, yva = torch.from_numpy(X[n_train:]), torch.from_numpy(y[n_train:])

    model = nn.Sequential(
        nn.Linear(X.shape[1], cfg["hidden"]), nn.Tanh(),
        nn.Linear(cfg["hidden"], cfg["hidden"]), nn.Tanh(),
        nn.Linear(cfg["hidden"], 1),
    )
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    loss_fn = nn.MSELoss()

    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(n_train)
        total = 0.0
        for i in range(0, n_train, cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            pred = model(Xtr[idx]).squeeze(-1)
            loss = loss_fn(pred, ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if epoch % 10 == 0 or epoch == cfg["epochs"] - 1:
            model.eval()
            with torch.no_grad():
                r2 = r2_score(model(Xva).squeeze(-1), yva).item()
            print(f"epoch {epoch:3d} train_mse={total / n_train:.4f} val_r2={r2:.4f}")

    model.eval()
    with torch.no_grad():
        r2 = r2_score(model(Xva).squeeze(-1), yva).item()
    print(f"val_r2={r2:.4f}")


if __name__ == "__main__":
    main()
