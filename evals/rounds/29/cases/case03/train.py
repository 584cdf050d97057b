import argparse
import json

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from kiosk.logs import simulate
from kiosk.features import featurize, sales_class, Standardizer


def build_model(n_in, hidden):
    return nn.Sequential(
        nn.Linear(n_in, hidden), nn.ReLU(),
        nn.Linear(hidden, hidden), nn.ReLU(),
        nn.Linear(hidden, 3),
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    torch.manual_seed(cfg["seed"])

    logs = simulate(cfg["n_days"], cfg["dropout_rate"], seed=cfg["seed"])
    feats = featurize(logs)
    labels = sales_class(logs["cups"])
    n = min(len(feats), len(labels))
    X, y = feats[:n], labels[:n]
    print(f"days kept: {n} of {cfg['n_days']}")

    # chronological split: the last quarter of the log is held out
    n_val = int(n * cfg["val_fraction"])
    Xtr, ytr, Xva, yva = X[:-n_val], y[:-n_val], X[-n_val:], y[-n_val:]
    scaler = Standardizer().fit(Xtr)
    Xtr, Xva = scaler(Xtr), scaler(Xva)

    train_dl = DataLoader(TensorDataset(torch.from_numpy(Xtr), torch.from_numpy(ytr)),
                          batch_size=cfg["batch_size"], shuffle=True)
    model = build_model(X.shape[1], cfg["hidden"])
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    loss_fn = nn.CrossEntropyLoss()

    for epoch in range(cfg["epochs"]):
        model.train()
        total = 0.0
        for xb, yb in train_dl:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
        if epoch % 10 == 0 or epoch == cfg["epochs"] - 1:
            print(f"epoch {epoch:3d}  train_loss {total / len(Xtr):.4f}")

    model.eval()
    with torch.no_grad():
        pred = model(torch.from_numpy(Xva)).argmax(1).numpy()
    acc = float((pred == yva).mean())
    print(f"val_acc={acc:.4f}")


if __name__ == "__main__":
    main()
