#!/usr/bin/env python
import argparse
import json
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from fraudlib import FraudNet, WeightedBCE, average_precision, simulate


def get_args():
    p = argparse.ArgumentParser("fraud detector")
    p.add_argument("--config", default="train_config.json")
    p.add_argument("--seed", type=int, default=None)
    return p.parse_args()


def main():
    args = get_args()
    cfg = json.load(open(args.config))
    seed = cfg["seed"] if args.seed is None else args.seed
    torch.manual_seed(seed)
    np.random.seed(seed)
    t0 = time.time()

    X, y = simulate(cfg["n_rows"], cfg["fraud_rate"], seed)
    n_val = int(len(X) * cfg["val_fraction"])
    Xtr, ytr, Xva, yva = X[n_val:], y[n_val:], X[:n_val], y[:n_val]
    mu, sd = Xtr.mean(0), Xtr.std(0) + 1e-6
    Xtr, Xva = (Xtr - mu) / sd, (Xva - mu) / sd

    pos_weight = (1 - ytr.mean()) / ytr.mean()
    print(f"train={len(Xtr)} val={len(Xva)} fraud_rate={ytr.mean():.4f} pos_weight={pos_weight:.1f}")
    loader = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)),
                        batch_size=cfg["batch_size"], shuffle=True)

    model = FraudNet(X.shape[1], cfg["hidden"], cfg["dropout"])
    criterion = WeightedBCE(pos_weight)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])

    for epoch in range(1, cfg["epochs"] + 1):
        model.train()
        running = 0.0
        for xb, yb in loader:
            logits = model(xb)
            loss = criterion(logits, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        model.eval()
        with torch.no_grad():
            scores = model(torch.from_numpy(Xva)).numpy()
        ap = average_precision(scores, yva)
        print(f"epoch {epoch:2d} loss {running / len(loader):.4f} val_ap {ap:.4f}")

    print(f"wall {time.time() - t0:.1f}s")
    print(f"METRIC val_ap={ap:.4f}")


if __name__ == "__main__":
    main()
