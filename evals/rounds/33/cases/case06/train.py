import argparse
import tomllib

import torch
import torch.nn as nn

from throws import simulate


def mlp(d_in, hidden):
    layers, d = [], d_in
    for h in hidden:
        layers += [nn.Linear(d, h), nn.ReLU()]
        d = h
    return nn.Sequential(*layers, nn.Linear(d, 1))


def run(cfg, seed):
    torch.manual_seed(seed)
    X, y = simulate(cfg["data"]["n_train"], cfg["data"]["seed"])
    Xv, yv = simulate(cfg["data"]["n_val"], cfg["data"]["seed"] + 1)
    model = mlp(X.shape[1], cfg["model"]["hidden"])
    o = cfg["optim"]
    opt = torch.optim.SGD(model.parameters(), lr=o["lr"], momentum=o["momentum"])
    for ep in range(o["epochs"]):
        perm = torch.randperm(len(X))
        for i in range(0, len(X), o["batch_size"]):
            b = perm[i:i + o["batch_size"]]
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(X[b]).squeeze(1), y[b])
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), o["max_grad_norm"])
            opt.step()
        if ep % 10 == 9:
            print(f"epoch {ep + 1} loss={loss.item():.4f}")
    with torch.no_grad():
        err_deg = ((model(Xv).squeeze(1) - yv) * 5).abs().mean().item()
    return err_deg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/base.toml")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    with open(a.config, "rb") as f:
        cfg = tomllib.load(f)
    err = run(cfg, a.seed)
    print(f"val_mae_deg={err:.3f}")


if __name__ == "__main__":
    main()
