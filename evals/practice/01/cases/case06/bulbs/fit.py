import argparse
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from .scans import GRADES, simulate, split_by_bulb


class Grader(nn.Module):
    def __init__(self, n_in, hidden, n_out):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.out = nn.Linear(hidden, n_out)

    def forward(self, x):
        return F.log_softmax(self.out(self.body(x)), dim=-1)


def confusion_matrix(pred, target, k):
    cm = np.zeros((k, k), dtype=np.int64)
    np.add.at(cm, (target, pred), 1)
    return cm


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="bulbs/settings.json")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    cfg = json.load(open(a.config))
    if a.seed is not None:
        cfg["seed"] = a.seed
    rng = np.random.default_rng(cfg["seed"])
    torch.manual_seed(cfg["seed"])

    X, bulb, y = simulate(cfg["n_bulbs"], cfg["scans_per_bulb"], rng)
    tr, va = split_by_bulb(bulb, cfg["val_fraction"], rng)
    assert not set(bulb[tr]) & set(bulb[va])
    mu, sd = X[tr].mean(0), X[tr].std(0)
    Xt = torch.tensor((X - mu) / sd)
    yt = torch.tensor(y)

    model = Grader(X.shape[1], cfg["hidden"], len(GRADES))
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    nll = nn.NLLLoss()
    tr_t = torch.tensor(tr)
    for ep in range(cfg["epochs"]):
        model.train()
        perm = tr_t[torch.randperm(len(tr_t))]
        tot = 0.0
        for s in range(0, len(perm), cfg["batch_size"]):
            j = perm[s:s + cfg["batch_size"]]
            loss = nll(model(Xt[j]), yt[j])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(j)
        if (ep + 1) % 5 == 0:
            print(f"epoch {ep + 1:2d} train_nll {tot / len(tr):.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(Xt[va]).argmax(-1).numpy()
    cm = confusion_matrix(pred, y[va], len(GRADES))
    acc = np.trace(cm) / cm.sum()
    within_one = sum(cm[i, j] for i in range(len(GRADES)) for j in range(len(GRADES)) if abs(i - j) <= 1) / cm.sum()
    print("confusion (rows=true):\n" + "\n".join(" ".join(f"{v:4d}" for v in row) for row in cm))
    print(f"val_within_one={within_one:.4f}")
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
