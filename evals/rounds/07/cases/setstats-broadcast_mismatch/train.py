import argparse
import json
import time

import numpy as np
import torch
from torch.utils.data import DataLoader

from data import SetDataset, make_sets
from model import DeepSets


def r2_score(pred, target):
    ss_res = ((pred - target) ** 2).sum()
    ss_tot = ((target - target.mean()) ** 2).sum()
    return float(1.0 - ss_res / ss_tot)


def squared_error(pred, target):
    return ((pred - target) ** 2).mean()


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    preds, ys = [], []
    for pts, mask, y in loader:
        preds.append(model(pts, mask).squeeze(-1))
        ys.append(y)
    return r2_score(torch.cat(preds), torch.cat(ys))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--epochs", type=int, default=None)
    args = ap.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)
    if args.seed is not None:
        cfg["seed"] = args.seed
    if args.epochs is not None:
        cfg["epochs"] = args.epochs

    torch.manual_seed(cfg["seed"])
    rng = np.random.default_rng(cfg["seed"])
    train_ds = SetDataset(*make_sets(cfg["n_train"], cfg["min_set"], cfg["max_set"], rng))
    val_ds = SetDataset(*make_sets(cfg["n_val"], cfg["min_set"], cfg["max_set"], rng))
    train_dl = DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=512)

    model = DeepSets(2, cfg["phi_hidden"], cfg["latent"], cfg["rho_hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])

    t0 = time.time()
    for epoch in range(cfg["epochs"]):
        model.train()
        total, seen = 0.0, 0
        for pts, mask, y in train_dl:
            pred = model(pts, mask)
            loss = squared_error(pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(y)
            seen += len(y)
        if epoch % 5 == 0 or epoch == cfg["epochs"] - 1:
            print(f"epoch {epoch:3d}  train_mse {total / seen:.4f}  val_r2 {evaluate(model, val_dl):.4f}")
    print(f"done in {time.time() - t0:.1f}s")
    print(f"METRIC val_r2={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
