"""Train the approval model and write artifacts/{model.pt,scaler.json}."""
import argparse
import json
import os

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from resnet import TabResNet
from scaler import Standardizer
from table import generate, split


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settings", default="settings.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.settings))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    X, y = generate(cfg["n_rows"])
    (Xtr, ytr), _ = split(X, y, cfg["holdout_frac"], cfg["seed"])
    scaler = Standardizer().fit(Xtr)
    ds = TensorDataset(torch.from_numpy(scaler.transform(Xtr)), torch.from_numpy(ytr))
    dl = DataLoader(ds, batch_size=cfg["batch_size"], shuffle=True, drop_last=True)

    model = TabResNet(X.shape[1], cfg["width"], cfg["blocks"], cfg["dropout"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])
    for epoch in range(cfg["epochs"]):
        model.train()
        correct = tot = 0
        for xb, yb in dl:
            logits = model(xb)
            loss = F.cross_entropy(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += (logits.argmax(1) == yb).sum().item()
            tot += len(yb)
        print(f"epoch {epoch:2d} loss {loss.item():.4f} train_acc {correct / tot:.4f}")

    os.makedirs(cfg["out_dir"], exist_ok=True)
    torch.save(model.state_dict(), os.path.join(cfg["out_dir"], "model.pt"))
    scaler.save(os.path.join(cfg["out_dir"], "scaler.json"))
    print("saved to", cfg["out_dir"])


if __name__ == "__main__":
    main()
