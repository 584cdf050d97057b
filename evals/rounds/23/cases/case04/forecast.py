import argparse
import json

import numpy as np
import torch
import torch.nn as nn

from profiles import simulate


def build_model(n_in, n_out, hidden):
    return nn.Sequential(
        nn.Linear(n_in, hidden), nn.GELU(),
        nn.Linear(hidden, hidden), nn.GELU(),
        nn.Linear(hidden, n_out),
    )


def batches(n, bs, gen):
    perm = torch.randperm(n, generator=gen)
    for i in range(0, n, bs):
        yield perm[i:i + bs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    cfg = json.load(open(a.config))
    seed = cfg["seed"] if a.seed is None else a.seed
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    gen = torch.Generator().manual_seed(seed)

    X, Y = simulate(cfg["n_casts"], cfg["depth_bins"])
    mu, sd = X.mean(0), X.std(0) + 1e-6
    X = (X - mu) / sd
    n_val = int(len(X) * cfg["val_frac"])
    Xtr, Ytr = torch.from_numpy(X[n_val:]), torch.from_numpy(Y[n_val:])
    Xva, Yva = torch.from_numpy(X[:n_val]), torch.from_numpy(Y[:n_val])
    y_mean = Ytr.mean(0)

    model = build_model(X.shape[1], Y.shape[1], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=cfg["lr_step_epochs"], gamma=cfg["lr_gamma"])
    mse = nn.MSELoss()

    for epoch in range(cfg["epochs"]):
        model.train()
        run = 0.0
        for idx in batches(len(Xtr), cfg["batch_size"], gen):
            pred = model(Xtr[idx]) + y_mean
            loss = mse(pred, Ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            run += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            rmse = torch.sqrt(mse(model(Xva) + y_mean, Yva)).item()
        print(f"epoch {epoch + 1:2d} lr={opt.param_groups[0]['lr']:.2e} train_mse={run / len(Xtr):.4f} val_rmse={rmse:.4f}")
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
