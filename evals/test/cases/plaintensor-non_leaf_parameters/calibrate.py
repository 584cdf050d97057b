import os

import numpy as np
import torch

from make_data import write_csv
from mlp import init_params, predict

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")
DTYPE = torch.float64
EPOCHS = 150
LR = 1e-2
DATA = "data/bench.csv"


def load(path):
    if not os.path.exists(path):
        write_csv(path)
    raw = np.loadtxt(path, delimiter=",", skiprows=1)
    features = np.column_stack([np.log(raw[:, 0]), raw[:, 1], raw[:, 2]])
    target = np.log(raw[:, 3])
    return features, target


def main():
    torch.manual_seed(0)
    features, target = load(DATA)
    n_test = len(features) // 5
    x = torch.tensor(features, dtype=DTYPE, device=DEVICE)
    y = torch.tensor(target, dtype=DTYPE, device=DEVICE)
    x_train, y_train, x_test, y_test = x[n_test:], y[n_test:], x[:n_test], y[:n_test]

    mu, sigma = x_train.mean(0), x_train.std(0)
    y_mu, y_sigma = y_train.mean(), y_train.std()
    x_train, x_test = (x_train - mu) / sigma, (x_test - mu) / sigma

    params = init_params([3, 32, 32, 1], seed=0)
    optimizer = torch.optim.Adam(params.values(), lr=LR)
    weights = {name: p.to(DEVICE, DTYPE) for name, p in params.items()}

    batch = 128
    for epoch in range(EPOCHS):
        perm = torch.randperm(len(x_train), device=DEVICE)
        total = 0.0
        for i in range(0, len(perm), batch):
            idx = perm[i:i + batch]
            pred = predict(x_train[idx], weights)
            loss = torch.mean((pred - (y_train[idx] - y_mu) / y_sigma) ** 2)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(idx)
        if epoch % 50 == 0 or epoch == EPOCHS - 1:
            print(f"epoch {epoch:4d}  train mse {total / len(x_train):.5f}")

    with torch.no_grad():
        ppm_pred = torch.exp(predict(x_test, weights) * y_sigma + y_mu)
        ppm_true = torch.exp(y_test)
        rmse = torch.sqrt(torch.mean((ppm_pred - ppm_true) ** 2)).item()
    print(f"test rmse: {rmse:.2f} ppm")


if __name__ == "__main__":
    main()
