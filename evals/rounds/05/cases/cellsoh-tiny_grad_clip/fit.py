import argparse
import json

import torch
import torch.nn as nn

from cells import make_cells
from scaling import StaticLossScaler


def r2(pred, y):
    return 1 - ((pred - y) ** 2).sum().item() / ((y - y.mean()) ** 2).sum().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="soh.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    X, y = make_cells(cfg["n_cells"], cfg["seed"])
    n_val = len(X) // 5
    Xtr, ytr, Xva, yva = X[n_val:], y[n_val:], X[:n_val], y[:n_val]

    h = cfg["hidden"]
    model = nn.Sequential(nn.Linear(X.shape[1], h), nn.SiLU(), nn.Linear(h, h), nn.SiLU(), nn.Linear(h, 1))
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=cfg["momentum"])
    scaler = StaticLossScaler(cfg["loss_scale"])
    params = list(model.parameters())

    for epoch in range(cfg["epochs"]):
        perm = torch.randperm(len(Xtr))
        norms = []
        for i in range(0, len(perm), cfg["batch_size"]):
            idx = perm[i:i + cfg["batch_size"]]
            loss = nn.functional.mse_loss(model(Xtr[idx]).squeeze(-1), ytr[idx])
            opt.zero_grad()
            scaler.scale_loss(loss).backward()
            norms.append(float(torch.nn.utils.clip_grad_norm_(params, cfg["max_grad_norm"])))
            if not scaler.unscale_(params):
                continue
            opt.step()
        if (epoch + 1) % 5 == 0:
            with torch.no_grad():
                score = r2(model(Xva).squeeze(-1), yva)
            print(f"epoch {epoch + 1:3d} loss {loss.item():.4f} grad_norm {sum(norms) / len(norms):.3g} val_r2 {score:.4f}")

    with torch.no_grad():
        print(f"val_r2={r2(model(Xva).squeeze(-1), yva):.4f}")


if __name__ == "__main__":
    main()
