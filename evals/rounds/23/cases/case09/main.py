import argparse

import numpy as np
import torch
import torch.nn as nn

from series import make_windows, station_series


def day_of_year_features(n, offset):
    d = (np.arange(n) + offset) % 365.25
    return np.stack([np.sin(2 * np.pi * d / 365.25), np.cos(2 * np.pi * d / 365.25)], 1).astype(np.float32)


def build(stations, lookback, horizon, days_train):
    Xtr, ytr, Xva, yva = [], [], [], []
    for s in stations:
        w, t = make_windows(s, lookback, horizon)
        doy = day_of_year_features(len(w), lookback)
        feats = np.concatenate([w, doy], 1)
        cut = days_train - lookback - horizon + 1
        Xtr.append(feats[:cut]); ytr.append(t[:cut])
        Xva.append(feats[days_train:]); yva.append(t[days_train:])
    cat = lambda a: torch.from_numpy(np.concatenate(a))
    return cat(Xtr), cat(ytr), cat(Xva), cat(yva)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lookback", type=int, default=21)
    ap.add_argument("--horizon", type=int, default=3)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    years = 6
    stations = [station_series(365 * years, seed=100 + k) for k in range(5)]
    Xtr, ytr, Xva, yva = build(stations, args.lookback, args.horizon, 365 * (years - 1))
    center = 7.5
    model = nn.Sequential(nn.Linear(Xtr.shape[1], 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    loss_fn = nn.MSELoss()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(ytr))
        for i in range(0, len(perm), 128):
            idx = perm[i:i + 128]
            x = Xtr[idx].clone(); x[:, :args.lookback] -= center
            loss = loss_fn(model(x).squeeze(-1), ytr[idx] - center)
            opt.zero_grad(); loss.backward(); opt.step()
        model.eval()
        with torch.no_grad():
            x = Xva.clone(); x[:, :args.lookback] -= center
            rmse = torch.sqrt(loss_fn(model(x).squeeze(-1), yva - center)).item()
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} train_mse={loss.item():.4f} val_rmse={rmse:.4f}")
    print(f"val_rmse={rmse:.4f}")


if __name__ == "__main__":
    main()
