import argparse
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from .net import WaveNetForecaster
from .series import make_windows, station_series


def build(stations, args):
    xs, ys = [], []
    for s in stations:
        x, y = make_windows(station_series(s, args.length, args.data_seed), args.context, args.horizon, args.stride)
        xs.append(x)
        ys.append(y)
    return np.concatenate(xs), np.concatenate(ys)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--context", type=int, default=96)
    p.add_argument("--horizon", type=int, default=1)
    p.add_argument("--stride", type=int, default=3)
    p.add_argument("--length", type=int, default=1600)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--data-seed", type=int, default=7)
    args = p.parse_args()

    torch.manual_seed(args.seed)
    xtr, ytr = build(range(6), args)
    xte, yte = build(range(6, 8), args)
    mu, sd = xtr.mean(), xtr.std()
    norm = lambda a: torch.from_numpy((a - mu) / sd).float()
    train_dl = DataLoader(TensorDataset(norm(xtr), norm(ytr)), batch_size=args.batch_size, shuffle=True)
    xte_t, yte_t = norm(xte), norm(yte)
    print(f"train windows {len(xtr)}  test windows {len(xte)}")

    model = WaveNetForecaster()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        run = 0.0
        for xb, yb in train_dl:
            loss = torch.mean((model(xb) - yb) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item() * len(xb)
        model.eval()
        with torch.no_grad():
            test_mse = torch.mean((model(xte_t) - yte_t) ** 2).item()
        print(f"epoch {epoch:2d}  train {run / len(train_dl.dataset):.4f}  test {test_mse:.4f}")
    print(f"elapsed {time.time() - t0:.1f}s")
    print(f"METRIC test_mse={test_mse:.4f}")


if __name__ == "__main__":
    main()
