"""Linear price model fitted by gradient descent.

Usage: python fit.py
"""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn

import data


@dataclass
class Config:
    csv: str = "data/houses.csv"
    test_fraction: float = 0.2
    lr: float = 0.1
    steps: int = 500
    seed: int = 0


def squared_error(pred, target):
    return ((pred - target) ** 2).mean()


def prepare(cfg):
    features, prices = data.load(cfg.csv)
    rng = np.random.default_rng(cfg.seed)
    order = rng.permutation(len(prices))
    n_test = int(cfg.test_fraction * len(prices))
    test, train = order[:n_test], order[n_test:]

    x_mean, x_std = features[train].mean(0), features[train].std(0)
    y_mean, y_std = prices[train].mean(), prices[train].std()
    to_t = lambda a: torch.tensor(a, dtype=torch.float32)
    x_train = to_t((features[train] - x_mean) / x_std)
    x_test = to_t((features[test] - x_mean) / x_std)
    y_train = to_t((prices[train] - y_mean) / y_std)
    return x_train, y_train, x_test, to_t(prices[test]), (y_mean, y_std)


def main(cfg=Config()):
    torch.manual_seed(cfg.seed)
    x_train, y_train, x_test, price_test, (y_mean, y_std) = prepare(cfg)

    model = nn.Linear(x_train.shape[1], 1)
    opt = torch.optim.SGD(model.parameters(), lr=cfg.lr)

    for step in range(cfg.steps):
        opt.zero_grad()
        loss = squared_error(model(x_train), y_train)
        loss.backward()
        opt.step()
        if step % 100 == 0:
            print(f"step {step:4d}  train loss {loss.item():.5f}")

    with torch.no_grad():
        pred = model(x_test).squeeze(-1) * y_std + y_mean
    rmse = torch.sqrt(((pred - price_test) ** 2).mean()).item()
    r2 = 1.0 - ((pred - price_test) ** 2).sum().item() / ((price_test - price_test.mean()) ** 2).sum().item()
    print(f"test rmse: {rmse:.2f}k$  r2: {r2:.4f}")


if __name__ == "__main__":
    main()
