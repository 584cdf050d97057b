import argparse
import json

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from bruxnet.data import build_splits
from bruxnet.model import JawConv


def f1_score(pred, y):
    tp = ((pred == 1) & (y == 1)).sum().item()
    fp = ((pred == 1) & (y == 0)).sum().item()
    fn = ((pred == 0) & (y == 1)).sum().item()
    return 2 * tp / max(2 * tp + fp + fn, 1)


def evaluate(model, loader):
    model.eval()
    preds, ys = [], []
    with torch.no_grad():
        for xb, yb in loader:
            preds.append(model(xb).argmax(1))
            ys.append(yb)
    return f1_score(torch.cat(preds), torch.cat(ys))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="configs/base.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    with open(args.config) as fh:
        cfg = json.load(fh)
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    np.random.seed(cfg["seed"])

    train_set, val_set = build_splits(cfg)
    g = torch.Generator().manual_seed(cfg["seed"])
    train_loader = DataLoader(train_set, batch_size=cfg["batch_size"], shuffle=True,
                              num_workers=cfg["num_workers"], generator=g,
                              persistent_workers=cfg["num_workers"] > 0)
    val_loader = DataLoader(val_set, batch_size=256)

    model = JawConv()
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        model.train()
        running = 0.0
        for xb, yb in train_loader:
            opt.zero_grad()
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            running += loss.item()
        f1 = evaluate(model, val_loader)
        print(f"epoch {epoch:2d} loss {running / len(train_loader):.4f} val_f1 {f1:.3f}")

    print(f"METRIC val_f1={evaluate(model, val_loader):.4f}")


if __name__ == "__main__":
    main()
