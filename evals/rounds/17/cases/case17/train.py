import argparse
import csv

import numpy as np
import torch
from torch import nn

FEATURES = ["temp_c", "rh_pct", "wind_kmh", "days_since_rain", "fuel_load_t_ha",
            "slope_deg", "dist_road_km", "drought_code"]


def read_table(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    X = np.array([[float(r[c]) for c in FEATURES] for r in rows], dtype=np.float32)
    area = np.array([float(r["area_ha"]) for r in rows], dtype=np.float32)
    return X, area


class SpreadNet(nn.Module):
    def __init__(self, n_in, width=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, width), nn.SiLU(),
                                  nn.Linear(width, width), nn.SiLU())
        self.out = nn.Linear(width, 1)

    def forward(self, x):
        return self.out(self.body(x))


def log_area_loss(pred_log, area_ha, delta=1.0):
    """Pseudo-Huber between predicted log area and log1p of the recorded area."""
    diff = pred_log - torch.log1p(area_ha)
    return (delta ** 2 * (torch.sqrt(1 + (diff / delta) ** 2) - 1)).mean()


def r2_log(model, X, area):
    model.eval()
    with torch.no_grad():
        pred = model(X).squeeze(-1)
    y = torch.log1p(area)
    return 1 - ((pred - y) ** 2).sum().item() / ((y - y.mean()) ** 2).sum().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="fires.csv")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    X, area = read_table(args.data)
    order = rng.permutation(len(X))
    n_val = len(X) // 5
    va, tr = order[:n_val], order[n_val:]
    mu, sd = X[tr].mean(0), X[tr].std(0)
    X = (X - mu) / sd
    Xtr, Atr = torch.from_numpy(X[tr]), torch.from_numpy(area[tr])
    Xva, Ava = torch.from_numpy(X[va]), torch.from_numpy(area[va])

    model = SpreadNet(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        epoch_loss = 0.0
        for i in range(0, len(perm), args.batch):
            idx = perm[i:i + args.batch]
            opt.zero_grad()
            loss = log_area_loss(model(Xtr[idx]), Atr[idx])
            loss.backward()
            opt.step()
            epoch_loss += loss.item() * len(idx)
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1} loss={epoch_loss / len(Xtr):.4f} val_r2_log={r2_log(model, Xva, Ava):.4f}")
    print(f"val_r2_log={r2_log(model, Xva, Ava):.4f}")


if __name__ == "__main__":
    main()
