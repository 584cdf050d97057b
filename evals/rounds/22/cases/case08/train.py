import argparse
import json

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from audio import simulate
from dataset import WindowDataset
from model import SnoreCNN
from scaling import NightScaler


def f1_score(logits, y):
    pred = (logits > 0).float()
    tp = (pred * y).sum().item()
    fp = (pred * (1 - y)).sum().item()
    fn = ((1 - pred) * y).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1.0)


def evaluate(model, loader):
    model.eval()
    outs, ys = [], []
    with torch.no_grad():
        for xb, yb in loader:
            outs.append(model(xb)); ys.append(yb)
    return f1_score(torch.cat(outs), torch.cat(ys))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    common = dict(n_windows=cfg["windows_per_night"], window=cfg["window"],
                  sr=cfg["sample_rate"], snore_fraction=cfg["snore_fraction"])
    xtr, ytr, ntr = simulate(cfg["train_nights"], seed=100, **common)
    xva, yva, nva = simulate(cfg["val_nights"], seed=200, **common)

    scaler = NightScaler().fit(xtr, ntr)
    xtr = scaler.transform(xtr, ntr)
    xva = scaler.transform(xva, nva)

    train_ds = WindowDataset(xtr, ytr, random_shift=100)
    val_ds = WindowDataset(xva, yva)
    g = torch.Generator().manual_seed(cfg["seed"])
    train_dl = DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True,
                          num_workers=cfg["num_workers"], generator=g, persistent_workers=True)
    val_dl = DataLoader(val_ds, batch_size=128)

    model = SnoreCNN()
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        model.train()
        run = 0.0
        for xb, yb in train_dl:
            loss = F.binary_cross_entropy_with_logits(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item()
        print(f"epoch {epoch + 1}  loss {run / len(train_dl):.4f}  val_f1 {evaluate(model, val_dl):.3f}")
    print(f"val_f1={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
