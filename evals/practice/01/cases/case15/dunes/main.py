import argparse
import json

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from .survey import simulate, rows, drop_missing


class DriftNet(nn.Module):
    def __init__(self, n_in, d=64):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(n_in, d), nn.GELU(), nn.Linear(d, d), nn.GELU())
        self.head = nn.Linear(d, 1)
        self.pred = nn.Linear(d, d)          # self-prediction head

    def forward(self, x):
        z = self.enc(x)
        return self.head(z).squeeze(-1), z


def save_stats(path, X, y):
    json.dump({"x_mean": X.mean(0).tolist(), "x_std": X.std(0).tolist(),
               "y_mean": float(y.mean()), "y_std": float(y.std())}, open(path, "w"))


def load_stats(path):
    s = json.load(open(path))
    return (np.array(s["x_mean"], np.float32), np.array(s["x_std"], np.float32), s["y_mean"], s["y_std"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--aux-weight", type=float, default=0.1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    torch.manual_seed(a.seed)

    h, w, dr, m = simulate(700, rng)
    n_tr = 560                                           # split by dune, not by row
    Xtr, ytr = drop_missing(*rows(h[:n_tr], w[:n_tr], dr[:n_tr], m[:n_tr]))
    Xva, yva = drop_missing(*rows(h[n_tr:], w[n_tr:], dr[n_tr:], m[n_tr:]))
    save_stats("stats.json", Xtr, ytr)
    xm, xs, ym, ys = load_stats("stats.json")
    Xt = torch.tensor((Xtr - xm) / xs)
    yt = torch.tensor((ytr - ym) / ys)
    Xv = torch.tensor((Xva - xm) / xs)

    model = DriftNet(Xt.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(yt))
        tot = 0.0
        for s in range(0, len(perm) - 1, 64):
            j = perm[s:s + 64]
            pred, z = model(Xt[j])
            # neighbouring row in the table (same dune, next year where available) as the view to predict
            j2 = torch.clamp(j + 1, max=len(yt) - 1)
            with torch.no_grad():
                _, z_next = model(Xt[j2])
            aux = F.mse_loss(model.pred(z), z_next.detach())
            loss = F.mse_loss(pred, yt[j]) + a.aux_weight * aux
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(j)
        if (ep + 1) % 10 == 0:
            model.eval()
            with torch.no_grad():
                mae = float(np.abs(model(Xv)[0].numpy() * ys + ym - yva).mean())
            print(f"epoch {ep + 1:3d} loss {tot / len(yt):.4f} val_mae {mae:.3f} m")
    model.eval()
    with torch.no_grad():
        mae = float(np.abs(model(Xv)[0].numpy() * ys + ym - yva).mean())
    print(f"persistence mae {np.abs(Xva[:, 2] - yva).mean():.3f} m")
    print(f"val_mae_m={mae:.4f}")


if __name__ == "__main__":
    main()
