import argparse
import json
import time

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from .data import make_splits
from .model import FraudScorer
from .metrics import prf


def parse_args():
    ap = argparse.ArgumentParser(description="train the validation fraud scorer")
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None, help="override config seed")
    return ap.parse_args()


@torch.no_grad()
def predict(model, X, bs=1024):
    model.eval()
    return torch.cat([model(X[i:i + bs]) for i in range(0, len(X), bs)])


def main():
    args = parse_args()
    with open(args.config) as f:
        cfg = json.load(f)
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])
    np.random.seed(cfg["seed"])

    (Xtr, ytr), (Xva, yva) = make_splits(cfg)
    print(f"train={len(ytr)} val={len(yva)} fraud_rate={ytr.mean():.3f}")
    loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=cfg["batch_size"], shuffle=True)

    model = FraudScorer(Xtr.shape[1], cfg["hidden"], cfg["dropout"])
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])
    crit = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(cfg["pos_weight"]))

    t0 = time.time()
    for epoch in range(cfg["epochs"]):
        model.train()
        running = 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = crit(model(xb), yb)
            loss.backward()
            opt.step()
            running += loss.item() * len(yb)
        scores = predict(model, Xva)
        p, r, f1 = prf(scores, yva, cfg["threshold"])
        print(f"epoch {epoch + 1:2d} loss={running / len(ytr):.4f} "
              f"val_precision={p:.3f} val_recall={r:.3f} val_f1={f1:.3f}")

    scores = predict(model, Xva)
    p, r, f1 = prf(scores, yva, cfg["threshold"])
    print(f"done in {time.time() - t0:.1f}s")
    print(f"val_f1={f1:.4f}")


if __name__ == "__main__":
    main()
