import argparse
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader

from series import Windows, vibration_series
from tcn import TCN


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--context", type=int, default=64)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    series = vibration_series(6000, seed=args.seed)
    cut = 4800
    train_ds = Windows(series[:cut], args.context)
    val_ds = Windows(series[cut - args.context:], args.context)
    train_dl = DataLoader(train_ds, batch_size=args.batch, shuffle=True, drop_last=True)
    val_dl = DataLoader(val_ds, batch_size=512)

    model = TCN()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    criterion = nn.MSELoss()

    step = 0
    while step < args.steps:
        for x, y in train_dl:
            pred = model(x)
            loss = criterion(pred, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            if step % 150 == 0:
                print(f"step {step:4d} train_mse {loss.item():.4f}")
            if step >= args.steps:
                break

    model.eval()
    se, n = 0.0, 0
    with torch.no_grad():
        for x, y in val_dl:
            err = model(x).squeeze(-1) - y
            se += (err ** 2).sum().item()
            n += len(y)
    print(f"val_rmse={math.sqrt(se / n):.4f}")


if __name__ == "__main__":
    main()
