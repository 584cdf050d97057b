"""Forecast hourly building load (kWh) from weather and calendar features."""
import argparse

import numpy as np
import torch
import torch.nn as nn

from features import Standardizer, load


def build_regressor(n_in, width=64):
    return nn.Sequential(
        nn.Linear(n_in, width),
        nn.SiLU(),
        nn.Linear(width, width),
        nn.SiLU(),
        nn.Linear(width, 1),
        nn.ReLU(),
    )


def holdout_split(x, y, test_fraction=0.2, seed=0):
    idx = np.random.default_rng(seed).permutation(len(x))
    cut = int(len(x) * (1 - test_fraction))
    train, test = idx[:cut], idx[cut:]
    return (x[train], y[train]), (x[test], y[test])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    opts = ap.parse_args()
    torch.manual_seed(opts.seed)

    x, load_kwh = load()
    (x_tr, y_tr), (x_te, y_te) = holdout_split(x, load_kwh, seed=opts.seed)
    x_scaler, y_scaler = Standardizer().fit(x_tr), Standardizer().fit(y_tr)

    inputs = torch.from_numpy(x_scaler.transform(x_tr))
    targets = torch.from_numpy(y_scaler.transform(y_tr)).unsqueeze(1)     # (N, 1), zero mean
    test_inputs = torch.from_numpy(x_scaler.transform(x_te))

    net = build_regressor(inputs.shape[1])
    optimizer = torch.optim.Adam(net.parameters(), lr=opts.lr)
    mse = nn.MSELoss()

    for epoch in range(opts.epochs):
        net.train()
        perm = torch.randperm(len(inputs))
        running = 0.0
        for i in range(0, len(perm), opts.batch):
            rows = perm[i:i + opts.batch]
            loss = mse(net(inputs[rows]), targets[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            running += loss.item() * len(rows)
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1:3d}  train mse (scaled) {running / len(inputs):.4f}")

    net.eval()
    with torch.no_grad():
        pred_kwh = y_scaler.inverse(net(test_inputs).squeeze(1).numpy())
    mae = np.abs(pred_kwh - y_te).mean()
    rmse = np.sqrt(((pred_kwh - y_te) ** 2).mean())
    print(f"test MAE {mae:.2f} kWh | test RMSE {rmse:.2f} kWh")


if __name__ == "__main__":
    main()
