import argparse
import json
import time

import numpy as np
import torch
import torch.nn.functional as F
from kws.data import make_loaders
from kws.model import KWSNet


def evaluate(model, loader):
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
    ap.add_argument("--epochs", type=int, default=None)
    args = ap.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)
    if args.epochs:
        cfg["optim"]["epochs"] = args.epochs

    torch.manual_seed(cfg["seed"])
    np.random.seed(cfg["seed"])
    torch.set_num_threads(1)

    train_dl, val_dl = make_loaders(cfg)
    model = KWSNet(cfg["features"]["n_mfcc"], len(cfg["keywords"]), **cfg["model"])
    oc = cfg["optim"]
    opt = torch.optim.AdamW(model.parameters(), lr=oc["lr"], weight_decay=oc["weight_decay"])
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=oc["lr"], total_steps=oc["epochs"] * len(train_dl))

    print(f"train={len(train_dl.dataset)} val={len(val_dl.dataset)} transform={train_dl.dataset.transform}")
    t0 = time.time()
    for epoch in range(oc["epochs"]):
        model.train()
        train_dl.dataset.epoch = epoch
        tot = cnt = 0
        for x, y in train_dl:
            logits = model(x)
            loss = F.cross_entropy(logits, y, label_smoothing=0.05)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item() * len(y)
            cnt += len(y)
        acc = evaluate(model, val_dl)
        print(f"epoch {epoch + 1:2d}  train_loss {tot / cnt:.4f}  val_acc {acc:.4f}  ({time.time() - t0:.1f}s)")

    print(f"val_acc={evaluate(model, val_dl):.4f}")


if __name__ == "__main__":
    main()
