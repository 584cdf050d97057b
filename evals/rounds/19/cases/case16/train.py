import argparse
import json

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from spectra import SpectraDataset, simulate


def build_model(bands, hidden, levels=5):
    return nn.Sequential(
        nn.Linear(bands, hidden), nn.GELU(),
        nn.Linear(hidden, hidden), nn.GELU(),
        nn.Linear(hidden, levels),
    )


def make_loaders(cfg, seed):
    rng = np.random.default_rng(seed)
    xtr, ytr = simulate(cfg["n_train"], cfg["bands"], rng)
    xva, yva = simulate(cfg["n_val"], cfg["bands"], np.random.default_rng(4242))
    stats = SpectraDataset.fit_stats(xtr)
    train_ds = SpectraDataset(xtr, ytr, stats=stats)
    val_ds = SpectraDataset(xva, yva)
    return (DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True),
            DataLoader(val_ds, batch_size=256))


def evaluate(model, loader):
    model.eval()
    hits, err, n = 0, 0.0, 0
    with torch.no_grad():
        for x, y in loader:
            pred = model(x).argmax(1)
            hits += (pred == y).sum().item()
            err += (pred - y).abs().sum().item()
            n += len(y)
    return hits / n, err / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    train_dl, val_dl = make_loaders(cfg, seed)
    model = build_model(cfg["bands"], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    crit = nn.CrossEntropyLoss()
    for epoch in range(cfg["epochs"]):
        model.train()
        for x, y in train_dl:
            opt.zero_grad()
            loss = crit(model(x), y)
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            acc, mae = evaluate(model, val_dl)
            print(f"epoch {epoch + 1} loss {loss.item():.3f} val_acc {acc:.3f} val_mae {mae:.3f}")
    acc, mae = evaluate(model, val_dl)
    print(f"val_mae={mae:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
