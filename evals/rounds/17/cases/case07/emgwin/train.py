import argparse
import json

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from .model import EMGNet
from .scaling import apply_stats, subject_stats
from .synth import make_cohort


def load_config():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="emgwin/config.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)
    if args.seed is not None:
        cfg["seed"] = args.seed
    return cfg


def prepare(cfg):
    X, y, subj = make_cohort(cfg["seed"], cfg["n_subjects"], cfg["windows_per_gesture"],
                             cfg["window"], cfg["channels"], cfg["gestures"])
    is_val = np.isin(subj, cfg["val_subjects"])
    tr = ~is_val
    train_stats = subject_stats(X[tr], subj[tr])
    Xtr = apply_stats(X[tr], subj[tr], train_stats)
    Xva = apply_stats(X[is_val], subj[is_val], train_stats)
    return (Xtr, y[tr]), (Xva, y[is_val])


def accuracy(model, X, y):
    model.eval()
    with torch.no_grad():
        return (model(X).argmax(1) == y).float().mean().item()


def main():
    cfg = load_config()
    torch.manual_seed(cfg["seed"])
    (Xtr, ytr), (Xva, yva) = prepare(cfg)
    Xtr, ytr = torch.from_numpy(Xtr), torch.from_numpy(ytr).long()
    Xva, yva = torch.from_numpy(Xva), torch.from_numpy(yva).long()
    loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=cfg["batch_size"], shuffle=True,
                        generator=torch.Generator().manual_seed(cfg["seed"]))

    model = EMGNet(cfg["channels"], cfg["gestures"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"])
    crit = nn.CrossEntropyLoss()
    for epoch in range(cfg["epochs"]):
        model.train()
        tot = 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = crit(model(xb), yb)
            loss.backward()
            opt.step()
            tot += loss.item() * len(yb)
        print(f"epoch {epoch + 1:2d} loss={tot / len(ytr):.4f} "
              f"train_acc={accuracy(model, Xtr, ytr):.3f} val_acc={accuracy(model, Xva, yva):.3f}")
    print(f"val_acc={accuracy(model, Xva, yva):.4f}")


if __name__ == "__main__":
    main()
