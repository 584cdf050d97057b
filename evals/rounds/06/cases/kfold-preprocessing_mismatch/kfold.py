import argparse
import json

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from data import make_dataset, kfold_indices


def fit_stats(X):
    return X.mean(axis=0), X.std(axis=0) + 1e-6


def to_tensors(X, y, stats=None):
    if stats is not None:
        mu, sd = stats
        X = (X - mu) / sd
    return TensorDataset(torch.as_tensor(X, dtype=torch.float32), torch.as_tensor(y))


def make_model(d_in, hidden, n_classes):
    return nn.Sequential(
        nn.Linear(d_in, hidden), nn.ReLU(),
        nn.Linear(hidden, hidden), nn.ReLU(),
        nn.Linear(hidden, n_classes),
    )


def train_fold(cfg, X_tr, y_tr, X_va, y_va, fold):
    torch.manual_seed(cfg["seed"] + fold)
    stats = fit_stats(X_tr)
    train_ds = to_tensors(X_tr, y_tr, stats)
    val_ds = to_tensors(X_va, y_va)
    loader = DataLoader(train_ds, batch_size=cfg["batch_size"], shuffle=True)
    model = make_model(X_tr.shape[1], cfg["hidden"], 4)
    opt = torch.optim.AdamW(model.parameters(), lr=cfg["lr"], weight_decay=cfg["weight_decay"])
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(cfg["epochs"]):
        model.train()
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        xv, yv = val_ds.tensors
        acc = (model(xv).argmax(dim=1) == yv).float().mean().item()
    return acc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--config", default="cv_config.json")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    cfg = json.load(open(args.config))
    if args.seed is not None:
        cfg["seed"] = args.seed
    X, y = make_dataset(cfg["n_samples"], cfg["data_seed"])
    folds = kfold_indices(len(X), cfg["n_folds"], cfg["data_seed"])
    accs = []
    for k in range(cfg["n_folds"]):
        va_idx = folds[k]
        tr_idx = np.concatenate([f for j, f in enumerate(folds) if j != k])
        acc = train_fold(cfg, X[tr_idx], y[tr_idx], X[va_idx], y[va_idx], k)
        accs.append(acc)
        print(f"fold {k}: acc={acc:.4f}")
    print(f"cv_acc_std={np.std(accs):.4f}")
    print(f"cv_acc={np.mean(accs):.4f}")


if __name__ == "__main__":
    main()
