import argparse
import json

import torch
import torch.nn.functional as F
from torch import nn

from logbook import make_logbooks


class DayConv(nn.Module):
    def __init__(self, n_feat, width, n_classes=3):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_feat, width, 5, padding=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2), nn.ReLU(),
            nn.Conv1d(width, n_classes, 1),
        )

    def forward(self, x):                # x: (batch, days, features)
        return self.conv(x.transpose(1, 2))   # (batch, classes, days)


def masked_ce(logits, labels, weight):
    ce = F.cross_entropy(logits, labels, reduction="none")
    return (ce * weight).sum() / weight.sum().clamp(min=1.0)


def logged_accuracy(model, x, y, gap):
    model.eval()
    with torch.no_grad():
        pred = model(x).argmax(1)
    logged = gap == 0
    return (pred[logged] == y[logged]).float().mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--settings", default="settings.json")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    with open(a.settings) as f:
        cfg = json.load(f)
    if a.seed is not None:
        cfg["seed"] = a.seed
    torch.manual_seed(cfg["seed"])

    feats, labels, gap = make_logbooks(cfg["seed"], cfg["stands"], cfg["days"], cfg["gap_rate"])
    x, y, g = torch.from_numpy(feats), torch.from_numpy(labels), torch.from_numpy(gap)
    nv = cfg["val_stands"]
    xtr, ytr, gtr = x[nv:], y[nv:], g[nv:]
    xva, yva, gva = x[:nv], y[:nv], g[:nv]

    model = DayConv(x.shape[-1], cfg["width"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    bs = cfg["batch_size"]
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(len(xtr))
        total = 0.0
        for i in range(0, len(perm), bs):
            idx = perm[i:i + bs]
            opt.zero_grad()
            loss = masked_ce(model(xtr[idx]), ytr[idx], gtr[idx])
            loss.backward()
            opt.step()
            total += loss.item()
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1} loss={total:.3f} val_acc={logged_accuracy(model, xva, yva, gva):.4f}")
    print(f"val_acc={logged_accuracy(model, xva, yva, gva):.4f}")


if __name__ == "__main__":
    main()
