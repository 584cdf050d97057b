import argparse
import json

import torch
import torch.nn as nn

from .acoustics import tap_features
from .losses import FocalLoss


class TapNet(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(),
                                  nn.Dropout(0.1),
                                  nn.Linear(hidden, hidden), nn.ReLU())
        self.flaw = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.flaw(self.body(x)).squeeze(-1)


def f1_at(logits, target, thr=0.5):
    pred = (torch.sigmoid(logits) > thr).float()
    tp = (pred * target).sum()
    fp = (pred * (1 - target)).sum()
    fn = ((1 - pred) * target).sum()
    return (2 * tp / (2 * tp + fp + fn).clamp(min=1)).item()


def train_epoch(model, x, y, opt, loss_fn, bs):
    model.train()
    perm = torch.randperm(len(x))
    total = 0.0
    for i in range(0, len(x), bs):
        idx = perm[i:i + bs]
        xb, yb = x[idx], y[idx]
        logits = model(xb)
        loss = loss_fn(yb, logits)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    return total / len(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settings", default="settings.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.settings))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    xtr, ytr = map(torch.from_numpy, tap_features(cfg["n_train"], cfg["flaw_rate"], seed))
    xva, yva = map(torch.from_numpy, tap_features(cfg["n_val"], cfg["flaw_rate"], seed + 7))
    mu, sd = xtr.mean(0), xtr.std(0)
    xtr, xva = (xtr - mu) / sd, (xva - mu) / sd

    model = TapNet(xtr.shape[1], cfg["hidden"])
    loss_fn = FocalLoss(cfg["focal_gamma"], cfg["focal_alpha"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        loss = train_epoch(model, xtr, ytr, opt, loss_fn, cfg["batch_size"])
        if epoch % 5 == 0:
            model.eval()
            with torch.no_grad():
                f1 = f1_at(model(xva), yva)
            print(f"epoch {epoch:2d} focal {loss:.4f} val_f1 {f1:.3f}")

    model.eval()
    with torch.no_grad():
        f1 = f1_at(model(xva), yva)
    print(f"val_f1={f1:.4f}")


if __name__ == "__main__":
    main()
