"""Bell strike-pitch regressor with an alloy-batch head.

The shared trunk and the pitch head are trained with Adam on the pitch loss plus the alloy
loss; the alloy head has its own SGD optimizer (it is re-fit each casting season).
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def cast_bells(n, seed=4):
    rng = np.random.default_rng(seed)
    alloy = rng.integers(0, 4, n)
    tin = np.array([0.20, 0.22, 0.24, 0.26])[alloy] + rng.normal(0, 0.006, n)
    thick = rng.uniform(0.07, 0.11, n)
    diam = rng.uniform(0.3, 1.2, n)
    nominal_hz = 520 * (thick / 0.09) / diam * (1 + 0.8 * (tin - 0.23))
    ratios = np.stack([[0.5, 1.0, 1.2, 1.5, 2.0][i] * (1 + (tin - 0.23) * c) + rng.normal(0, 0.002, n)
                       for i, c in enumerate([1.5, -0.6, 2.0, -1.2, 0.4])])
    strike_cents = 1200 * np.log2(nominal_hz / 440) + rng.normal(0, 3, n)
    X = np.concatenate([ratios.T, np.log(nominal_hz)[:, None] - 6, thick[:, None] * 10, diam[:, None]], 1)
    X = (X - X.mean(0)) / X.std(0)
    return X.astype(np.float32), strike_cents.astype(np.float32), alloy.astype(np.int64)


class BellNet(nn.Module):
    def __init__(self, n_in, hidden=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.pitch_head = nn.Linear(hidden, 1)
        self.alloy_head = nn.Linear(hidden, 4)

    def forward(self, x):
        h = self.trunk(x)
        return self.pitch_head(h).squeeze(-1), self.alloy_head(h)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    X, cents, alloy = cast_bells(5000)
    c_mu, c_sd = cents[:4000].mean(), cents[:4000].std()
    X, cents, alloy = map(torch.from_numpy, (X, cents, alloy))
    tr, va = slice(0, 4000), slice(4000, None)

    model = BellNet(X.shape[1])
    opt_main = torch.optim.Adam(list(model.trunk.parameters()) + list(model.pitch_head.parameters()), lr=2e-3)
    opt_alloy = torch.optim.SGD(model.alloy_head.parameters(), lr=0.05, momentum=0.9)

    Xtr, ctr, atr = X[tr], (cents[tr] - c_mu) / c_sd, alloy[tr]
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(perm), 64):
            idx = perm[i:i + 64]
            pitch, alloy_logits = model(Xtr[idx])
            loss_pitch = F.mse_loss(pitch, ctr[idx])
            loss_alloy = F.cross_entropy(alloy_logits, atr[idx])
            opt_main.zero_grad()
            (loss_pitch + 0.5 * loss_alloy).backward()
            opt_main.step()
            opt_alloy.step()
        model.eval()
        with torch.no_grad():
            p, a = model(X[va])
            mae = ((p * c_sd + c_mu) - cents[va]).abs().mean().item()
            acc = (a.argmax(1) == alloy[va]).float().mean().item()
        print(f"epoch {epoch + 1:2d} pitch_mae_cents={mae:.2f} alloy_acc={acc:.3f}")
    print(f"pitch_mae_cents={mae:.2f}")
    print(f"METRIC alloy_acc={acc:.4f}")


if __name__ == "__main__":
    main()
