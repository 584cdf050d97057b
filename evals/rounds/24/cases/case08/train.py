import argparse
import tomllib

import numpy as np
import torch
import torch.nn as nn

from profiles import simulate, windows, HEIGHTS


class ProfileForecaster(nn.Module):
    def __init__(self, history, n_levels, hidden):
        super().__init__()
        self.gru = nn.GRU(n_levels, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_levels)

    def forward(self, x):
        h, _ = self.gru(x)
        # predict the change from the last observed profile
        return x[:, -1] + self.out(h[:, -1])


def train_one_epoch(model, opt, sched, X, y, batch_size):
    model.train()
    perm = torch.randperm(len(X))
    tot = 0.0
    for i in range(0, len(perm), batch_size):
        b = perm[i:i + batch_size]
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X[b]), y[b])
        loss.backward()
        opt.step()
        sched.step()
        tot += loss.item() * len(b)
    return tot / len(perm)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="kite.toml")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config, "rb") as f:
        cfg = tomllib.load(f)
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    prof = simulate(cfg["data"]["n_steps"], seed)
    X, y = windows(prof, cfg["data"]["history"])
    cut = int(len(X) * (1 - cfg["data"]["val_fraction"]))
    scale = float(prof[:cut].std())
    X, y = torch.from_numpy(X / scale), torch.from_numpy(y / scale)
    Xtr, ytr, Xva, yva = X[:cut], y[:cut], X[cut:], y[cut:]

    model = ProfileForecaster(cfg["data"]["history"], len(HEIGHTS), cfg["model"]["hidden"])
    o = cfg["optim"]
    opt = torch.optim.Adam(model.parameters(), lr=o["lr"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=o["lr_step_epochs"], gamma=o["lr_gamma"])

    for epoch in range(o["epochs"]):
        loss = train_one_epoch(model, opt, sched, Xtr, ytr, o["batch_size"])
        if epoch % 3 == 2:
            print(f"epoch {epoch + 1} train_mse={loss:.5f} lr={opt.param_groups[0]['lr']:.2e}")

    model.eval()
    with torch.no_grad():
        rmse = ((model(Xva) - yva) ** 2).mean().sqrt().item() * scale
        persist = ((Xva[:, -1] - yva) ** 2).mean().sqrt().item() * scale
    print(f"persistence_rmse={persist:.4f}")
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
