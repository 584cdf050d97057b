import argparse
import json
import time

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from lanterns.frames import build_split
from lanterns.net import CountNet


def evaluate(model, loader):
    model.eval()
    err, n = 0.0, 0
    with torch.no_grad():
        for xb, yb in loader:
            err += (model(xb) - yb).abs().sum().item()
            n += len(yb)
    return err / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/bridge.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    Xtr, ytr = build_split("train", cfg["n_train"], cfg)
    Xva, yva = build_split("val", cfg["n_val"], cfg)
    train_dl = DataLoader(TensorDataset(torch.tensor(Xtr), torch.tensor(ytr)),
                          batch_size=cfg["batch_size"], shuffle=True)
    val_dl = DataLoader(TensorDataset(torch.tensor(Xva), torch.tensor(yva)), batch_size=256)

    model = CountNet(cfg["channels"])
    model(torch.zeros(1, 1, cfg["frame"], cfg["frame"]))   # materialise the lazy layer
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    t0 = time.time()
    for epoch in range(cfg["epochs"]):
        model.train()
        tot = 0.0
        for xb, yb in train_dl:
            loss = F.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(yb)
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1:3d}  train_mse {tot / len(ytr):.3f}  val_mae {evaluate(model, val_dl):.3f}")
    print(f"{time.time() - t0:.1f}s")
    print(f"val_mae={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
