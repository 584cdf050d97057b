import argparse
import time

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from buoy import simulate

HS = 0  # column of significant wave height in the record


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=15)
    p.add_argument("--window", type=int, default=48)
    p.add_argument("--horizon", type=int, default=6)
    p.add_argument("--batch-size", type=int, default=128)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--data-seed", type=int, default=7)
    return p.parse_args()


def standardize(record, n_fit):
    mu = record[:n_fit].mean(0, keepdim=True)
    sd = record[:n_fit].std(0, keepdim=True)
    return (record - mu) / sd, mu, sd


def build_windows(record, window, horizon):
    """Slice the record into (history, future Hs) pairs.

    The target series is Hs shifted so that row t holds the value `horizon` hours
    after t; windows end at t and are paired with that row.
    """
    target = torch.roll(record[:, HS], shifts=horizon)
    xs, ys = [], []
    last = record.shape[0] - horizon
    for t in range(window - 1, last):
        xs.append(record[t - window + 1 : t + 1])
        ys.append(target[t])
    x = torch.stack(xs).transpose(1, 2).contiguous()  # [N, C, window]
    y = torch.stack(ys)
    return x, y


class ConvForecaster(nn.Module):
    def __init__(self, channels=3, hidden=32, window=48):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(channels, hidden, 5, padding=2), nn.GELU(),
            nn.Conv1d(hidden, hidden, 5, padding=2, dilation=1), nn.GELU(),
            nn.AdaptiveAvgPool1d(8),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(hidden * 8 + channels, 64), nn.GELU(), nn.Linear(64, 1))

    def forward(self, x):
        last = x[:, :, -1]
        return self.head[1:](torch.cat([self.head[0](self.body(x)), last], 1)).squeeze(-1)


def main():
    args = parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    t0 = time.time()

    raw = simulate(seed=args.data_seed)
    n_train = int(0.8 * raw.shape[0])
    rec, mu, sd = standardize(raw, n_train)

    x, y = build_windows(rec, args.window, args.horizon)
    # time-ordered split: everything whose window ends before n_train is training
    cut = n_train - args.window
    gap = args.horizon + args.window
    xtr, ytr = x[:cut], y[:cut]
    xva, yva = x[cut + gap :], y[cut + gap :]

    loader = DataLoader(TensorDataset(xtr, ytr), batch_size=args.batch_size, shuffle=True, drop_last=True)
    model = ConvForecaster(window=args.window)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    loss_fn = nn.SmoothL1Loss(beta=0.5)

    for epoch in range(args.epochs):
        model.train()
        tot = 0.0
        for xb, yb in loader:
            opt.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        model.eval()
        with torch.no_grad():
            pred = model(xva)
            rmse = ((pred - yva) ** 2).mean().sqrt().item() * sd[0, HS].item()
        if epoch % 5 == 0 or epoch == args.epochs - 1:
            print(f"epoch {epoch:3d} train_loss={tot / len(xtr):.4f} val_rmse={rmse:.4f} m")

    # persistence baseline: Hs now as the forecast
    persist = ((xva[:, HS, -1] - yva) ** 2).mean().sqrt().item() * sd[0, HS].item()
    print(f"persistence_rmse={persist:.4f}  ({time.time() - t0:.1f}s)")
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
