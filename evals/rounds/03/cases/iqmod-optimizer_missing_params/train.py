"""Modulation recognition from raw I/Q bursts.

    python train.py configs/modrec.json [--seed N]
"""
import argparse
import json

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from model import ModClassifier
from optim_factory import build_optimizer, describe
from signals import MODS, make_dataset


@torch.no_grad()
def accuracy(model, loader):
    model.eval()
    hit = n = 0
    for x, y in loader:
        hit += (model(x).argmax(1) == y).sum().item()
        n += len(y)
    model.train()
    return hit / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("config")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    x_tr, y_tr = make_dataset(cfg["data"]["n_train"], seed=seed)
    x_va, y_va = make_dataset(cfg["data"]["n_val"], seed=31337)
    train_loader = DataLoader(TensorDataset(torch.from_numpy(x_tr), torch.from_numpy(y_tr)),
                              batch_size=cfg["train"]["batch_size"], shuffle=True,
                              generator=torch.Generator().manual_seed(seed))
    val_loader = DataLoader(TensorDataset(torch.from_numpy(x_va), torch.from_numpy(y_va)), batch_size=500)

    model = ModClassifier(len(MODS), **cfg["model"])
    optimizer = build_optimizer(model, cfg["optim"])
    print("optimizer groups:", describe(optimizer))

    for epoch in range(1, cfg["train"]["epochs"] + 1):
        total = 0.0
        for x, y in train_loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(y)
        print(f"epoch {epoch:2d}  loss {total / len(x_tr):.4f}  val_acc {accuracy(model, val_loader):.4f}")

    print(f"val_acc={accuracy(model, val_loader):.4f}")


if __name__ == "__main__":
    main()
