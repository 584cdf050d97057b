import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from station import simulate_station


def mlp(n_in, hidden):
    layers, d = [], n_in
    for h in hidden:
        layers += [nn.Linear(d, h), nn.ReLU()]
        d = h
    layers.append(nn.Linear(d, 1))
    return nn.Sequential(*layers)


def highflow_mse(pred, target):
    """Squared error on log flow, days above the median flow weighted up to 2x."""
    w = 1.0 + (target - target.median()).clamp(min=0) / (target.max() - target.median() + 1e-6)
    return ((pred - target) ** 2 * w).mean()


def r2(pred, target):
    return 1.0 - ((pred - target) ** 2).sum() / ((target - target.mean()) ** 2).sum()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="fit.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    X, runoff = simulate_station(cfg["n_days"], seed)
    y = np.log1p(runoff)
    n_tr = cfg["n_days"] - cfg["val_days"]
    mu, sd = X[:n_tr].mean(0), X[:n_tr].std(0) + 1e-6
    X = (X - mu) / sd
    xtr, ytr = torch.from_numpy(X[:n_tr]), torch.from_numpy(y[:n_tr])
    xva, yva = torch.from_numpy(X[n_tr:]), torch.from_numpy(y[n_tr:])

    net = mlp(X.shape[1], cfg["hidden"])
    opt = torch.optim.Adam(net.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        net.train()
        order = torch.randperm(n_tr)
        for i in range(0, n_tr, cfg["batch_size"]):
            idx = order[i:i + cfg["batch_size"]]
            loss = highflow_mse(net(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 10 == 9:
            net.eval()
            with torch.no_grad():
                print(f"epoch {epoch + 1} loss {loss.item():.4f} val_r2_log {r2(net(xva).squeeze(-1), yva):.3f}")

    net.eval()
    with torch.no_grad():
        score = r2(net(xva).squeeze(-1), yva).item()
    print(f"val_r2_log={score:.4f}")


if __name__ == "__main__":
    main()
