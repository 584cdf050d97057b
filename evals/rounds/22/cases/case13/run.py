import argparse
import json

import numpy as np
import torch
from torch import nn

from features import fill_gaps
from shoplogs import simulate


class DayTagger(nn.Module):
    def __init__(self, n_in, ch):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(n_in, ch, 3, padding=1), nn.ReLU(),
            nn.Conv1d(ch, ch, 3, padding=1), nn.ReLU(),
            nn.Conv1d(ch, 1, 1),
        )

    def forward(self, x):                      # x: (batch, days, feats)
        return self.net(x.transpose(1, 2)).squeeze(1)


def masked_bce(logits, target, weight):
    per_day = nn.functional.binary_cross_entropy_with_logits(logits, target, reduction="none")
    return (per_day * weight).sum() / weight.sum().clamp(min=1.0)


def auc(scores, labels):
    order = np.argsort(scores)
    ranks = np.empty(len(scores)); ranks[order] = np.arange(1, len(scores) + 1)
    pos = labels == 1
    n_pos, n_neg = pos.sum(), (~pos).sum()
    return (ranks[pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="settings.json")
    ap.add_argument("--seed", type=int)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)

    logs, promo = simulate(cfg["n_shops"], cfg["days"], cfg["missing_rate"], cfg["promo_rate"], seed=5)
    x, gap = fill_gaps(logs)
    observed_val = ~np.isnan(logs[-cfg["val_shops"]:]).any(-1)
    x, y, w = torch.from_numpy(x), torch.from_numpy(promo), torch.from_numpy(gap.astype(np.float32))
    ntr = cfg["n_shops"] - cfg["val_shops"]
    xtr, ytr, wtr = x[:ntr], y[:ntr], w[:ntr]
    xva, yva = x[ntr:], y[ntr:]

    model = DayTagger(x.shape[-1], cfg["channels"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for epoch in range(cfg["epochs"]):
        model.train()
        perm = torch.randperm(ntr)
        for s in range(0, ntr, cfg["batch_size"]):
            idx = perm[s:s + cfg["batch_size"]]
            loss = masked_bce(model(xtr[idx]), ytr[idx], wtr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if (epoch + 1) % 5 == 0:
            model.eval()
            with torch.no_grad():
                sc = model(xva).numpy()
            print(f"epoch {epoch + 1:3d}  loss {loss.item():.4f}  "
                  f"val_auc {auc(sc[observed_val], yva.numpy()[observed_val]):.4f}")
    model.eval()
    with torch.no_grad():
        sc = model(xva).numpy()
    print(f"val_auc={auc(sc[observed_val], yva.numpy()[observed_val]):.4f}")


if __name__ == "__main__":
    main()
