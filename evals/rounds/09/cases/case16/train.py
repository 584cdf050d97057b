import argparse
import json

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from dataset import RSSIDataset
from model import RBFNet
from signals import ROOMS, fit_stats, simulate


def accuracy(model, loader):
    model.eval()
    correct = n = 0
    with torch.no_grad():
        for x, y in loader:
            correct += (model(x).argmax(1) == y).sum().item()
            n += len(y)
    return correct / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed

    rng = np.random.default_rng(cfg["seed"])
    torch.manual_seed(cfg["seed"])
    x_tr, y_tr = simulate(cfg["n_train"], rng)
    x_va, y_va = simulate(cfg["n_val"], rng)
    stats = fit_stats(x_tr)

    train_ds = RSSIDataset(x_tr, y_tr, stats)
    val_ds = RSSIDataset(x_va, y_va)
    train_dl = DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=512)

    idx = torch.randperm(len(train_ds))[: cfg["n_centers"]]
    model = RBFNet(train_ds.x[idx], n_classes=len(ROOMS))
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])

    for epoch in range(cfg["epochs"]):
        tot = 0.0
        for x, y in train_dl:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1}: loss {tot / len(train_ds):.4f} "
                  f"train_acc {accuracy(model, train_dl):.3f} val_acc {accuracy(model, val_dl):.3f}")
        model.train()

    print(f"val_acc={accuracy(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
