import argparse
import math

import numpy as np
import torch
import torch.nn as nn

from trips import N_ZONES, simulate_trips

TARGET = "fare"
CATEGORICAL = ["pickup_zone", "dropoff_zone"]
# not known when the fare is quoted
POST_TRIP = {"fare", "tip_amount", "total_amount"}


def build_matrices(rows):
    dense_cols = [c for c in rows[0] if c not in POST_TRIP and c not in CATEGORICAL]
    cat = np.array([[r[c] for c in CATEGORICAL] for r in rows], dtype=np.int64)
    dense = []
    for r in rows:
        feats = []
        for c in dense_cols:
            if c == "hour":
                feats += [math.sin(2 * math.pi * r[c] / 24), math.cos(2 * math.pi * r[c] / 24)]
            elif c == "weekday":
                feats += [float(r[c] >= 5)]
            else:
                feats.append(float(r[c]))
        dense.append(feats)
    y = np.array([r[TARGET] for r in rows], dtype=np.float32)
    return cat, np.array(dense, dtype=np.float32), y, dense_cols


class FareNet(nn.Module):
    def __init__(self, n_dense, emb_dim=8, hidden=96):
        super().__init__()
        self.pu = nn.Embedding(N_ZONES, emb_dim)
        self.do = nn.Embedding(N_ZONES, emb_dim)
        self.mlp = nn.Sequential(nn.Linear(2 * emb_dim + n_dense, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, cat, dense):
        h = torch.cat([self.pu(cat[:, 0]), self.do(cat[:, 1]), dense], 1)
        return self.mlp(h).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trips", type=int, default=12000)
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    rows = simulate_trips(args.trips, seed=42)
    cat, dense, y, cols = build_matrices(rows)
    print("dense columns:", cols)
    n_val = len(y) // 5
    mu, sd = dense[n_val:].mean(0), dense[n_val:].std(0) + 1e-6
    dense = (dense - mu) / sd
    cat, dense, y = map(torch.from_numpy, (cat, dense, y))
    tr = slice(n_val, None)
    va = slice(0, n_val)

    model = FareNet(dense.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    loss_fn = nn.HuberLoss(delta=2.0)
    n_tr = len(y) - n_val
    for epoch in range(args.epochs):
        perm = torch.randperm(n_tr) + n_val
        for i in range(0, n_tr, 128):
            idx = perm[i:i + 128]
            loss = loss_fn(model(cat[idx], dense[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            mae = (model(cat[va], dense[va]) - y[va]).abs().mean().item()
        print(f"epoch {epoch + 1:2d} huber {loss.item():.3f} val_mae {mae:.3f}")

    with torch.no_grad():
        mae = (model(cat[va], dense[va]) - y[va]).abs().mean().item()
    print(f"val_mae={mae:.4f}")


if __name__ == "__main__":
    main()
