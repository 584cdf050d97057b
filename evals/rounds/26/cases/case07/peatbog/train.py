import argparse

import numpy as np
import torch
from torch.utils.data import DataLoader, TensorDataset

from .model import Forecaster
from .station import simulate_station
from .windows import CHANNELS, Scaler, make_windows


def parse_args():
    p = argparse.ArgumentParser(description="7-day water-table forecaster")
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--lookback", type=int, default=30)
    p.add_argument("--horizon", type=int, default=7)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=0)
    return p.parse_args()


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    record = simulate_station(seed=args.seed)
    x, y = make_windows(record, args.lookback, args.horizon)
    cut = int(0.8 * len(x))  # chronological split, no shuffling across the cut
    x_tr, y_tr, x_va, y_va = x[:cut], y[:cut], x[cut:], y[cut:]

    scaler = Scaler().fit(x_tr)
    y_mu, y_sd = y_tr.mean(), y_tr.std()
    tr = TensorDataset(torch.from_numpy(scaler(x_tr)), torch.from_numpy((y_tr - y_mu) / y_sd))
    va_x = torch.from_numpy(scaler(x_va))
    va_y = torch.from_numpy(y_va)
    loader = DataLoader(tr, batch_size=args.batch_size, shuffle=True)

    model = Forecaster(args.lookback, len(CHANNELS))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = torch.nn.SmoothL1Loss()

    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item() * len(xb)
        model.eval()
        with torch.no_grad():
            pred = model(va_x) * y_sd + y_mu
            mae = (pred - va_y).abs().mean().item()
        if epoch % 5 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch:3d} train_loss={total / len(tr):.4f} val_mae_cm={mae:.3f}")

    print(f"val_mae_cm={mae:.4f}")


if __name__ == "__main__":
    main()
