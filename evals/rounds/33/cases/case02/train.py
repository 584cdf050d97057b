import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def daily_log(days, seed):
    g = np.random.default_rng(seed)
    temp = 18 + 9 * np.sin(np.arange(days) * 2 * np.pi / 365) + g.normal(0, 3, days)
    sun = np.clip(g.normal(6, 3, days), 0, 14)
    foot = g.poisson(300, days) * (1 + 0.4 * (np.arange(days) % 7 >= 5))
    event = (g.random(days) < 0.08).astype(float)
    score = 0.25 * (temp - 20) + 0.2 * (sun - 6) + 0.01 * (foot - 330) + 2.0 * event
    sold_out = (score + g.logistic(0, 0.6, days) > 0.8).astype(np.float32)
    X = np.stack([temp, sun, foot / 100, event], 1)
    missing = g.random(days) < 0.12
    X[missing] = np.nan
    for t in range(1, days):                       # forward fill gaps
        if missing[t]:
            X[t] = X[t - 1]
    X[np.isnan(X)] = 0.0
    X = np.concatenate([X, missing[:, None].astype(float)], 1)
    return X.astype(np.float32), sold_out


def accuracy(model, loader):
    model.eval()
    correct = 0.0
    with torch.no_grad():
        for x, y in loader:
            pred = (model(x).squeeze(1) > 0).float()
            correct += (pred == y).float().mean().item()
    return correct / len(loader.dataset)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    X, y = daily_log(3 * 365, seed=4)
    mu, sd = X[:730].mean(0), X[:730].std(0) + 1e-6
    X = (X - mu) / sd
    tr = TensorDataset(torch.from_numpy(X[:730]), torch.from_numpy(y[:730]))
    te = TensorDataset(torch.from_numpy(X[730:]), torch.from_numpy(y[730:]))
    train_dl = DataLoader(tr, batch_size=32, shuffle=True)
    test_dl = DataLoader(te, batch_size=64)
    model = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 1))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.BCEWithLogitsLoss()
    for ep in range(a.epochs):
        model.train()
        for xb, yb in train_dl:
            opt.zero_grad()
            loss = loss_fn(model(xb).squeeze(1), yb)
            loss.backward()
            opt.step()
        if ep % 10 == 9:
            print(f"epoch {ep + 1} bce={loss.item():.4f} test_acc={accuracy(model, test_dl):.4f}")
    print(f"base_rate={float(y[730:].mean()):.4f}")
    print(f"test_acc={accuracy(model, test_dl):.4f}")


if __name__ == "__main__":
    main()
