import argparse
import json

import numpy as np
import torch
import torch.nn.functional as F

from rowing.model import StrokeNet
from rowing.sim import simulate


def batches(X, y, bs, shuffle, gen=None):
    idx = torch.randperm(len(X), generator=gen) if shuffle else torch.arange(len(X))
    for i in range(0, len(X), bs):
        j = idx[i:i + bs]
        yield X[j], y[j]


def evaluate(model, X, y, y_mu, y_sd):
    model.eval()
    with torch.no_grad():
        pred = model(X) * y_sd + y_mu
    mae = (pred - y).abs().mean().item()
    r2 = 1 - ((pred - y) ** 2).sum().item() / ((y - y.mean()) ** 2).sum().item()
    return mae, r2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    Xtr, ytr = simulate(cfg["n_train"], cfg["window"], seed=seed)
    Xva, yva = simulate(cfg["n_val"], cfg["window"], seed=seed + 1000)
    Xtr, ytr, Xva, yva = map(torch.from_numpy, (Xtr, ytr, Xva, yva))
    y_mu, y_sd = ytr.mean(), ytr.std()

    model = StrokeNet(cfg["channels"], cfg["hidden"], cfg["kernel"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    gen = torch.Generator().manual_seed(seed)

    for epoch in range(cfg["epochs"]):
        model.train()
        run = 0.0
        for xb, yb in batches(Xtr, ytr, cfg["batch_size"], True, gen):
            loss = F.mse_loss(model(xb), (yb - y_mu) / y_sd)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item() * len(xb)
        if epoch % 5 == 4:
            mae, r2 = evaluate(model, Xva, yva, y_mu, y_sd)
            print(f"epoch {epoch + 1} loss {run / len(Xtr):.4f} val_mae_w {mae:.1f} val_r2 {r2:.3f}")

    mae, r2 = evaluate(model, Xva, yva, y_mu, y_sd)
    print(f"val_mae_w={mae:.2f}")
    print(f"val_r2={r2:.4f}")


if __name__ == "__main__":
    main()
