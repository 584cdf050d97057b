"""Train the glow-worm count regressor."""
import argparse

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from survey import FEATURES, simulate


class Quadrats(Dataset):
    def __init__(self, x, counts, stats):
        mu, sd = stats
        # lux and midge density are log-normal-ish; log them before scaling
        x = x.copy()
        x[:, 2] = np.log(x[:, 2] + 1e-3)
        x[:, 3] = np.log1p(x[:, 3])
        self.x = torch.from_numpy((x - mu) / sd)
        self.y = torch.from_numpy(np.log1p(counts))

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def feature_stats(x):
    x = x.copy()
    x[:, 2] = np.log(x[:, 2] + 1e-3)
    x[:, 3] = np.log1p(x[:, 3])
    return x.mean(0), x.std(0) + 1e-6


def huber(pred, target, delta=1.0):
    err = pred - target
    quad = torch.clamp(err.abs(), max=delta)
    return (0.5 * quad ** 2 + delta * (err.abs() - quad)).mean()


def build_model(n_in):
    return nn.Sequential(
        nn.Linear(n_in, 64), nn.SiLU(),
        nn.Linear(64, 64), nn.SiLU(),
        nn.Linear(64, 1),
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    x, counts = simulate(seed=args.seed)
    n_tr = int(0.8 * len(x))
    stats = feature_stats(x[:n_tr])
    tr = Quadrats(x[:n_tr], counts[:n_tr], stats)
    va = Quadrats(x[n_tr:], counts[n_tr:], stats)
    dl = DataLoader(tr, batch_size=128, shuffle=True)

    model = build_model(len(FEATURES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs)

    for ep in range(args.epochs):
        model.train()
        for xb, yb in dl:
            loss = huber(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        sched.step()
        if ep % 10 == 9:
            model.eval()
            with torch.no_grad():
                rmse = ((model(va.x).squeeze(1) - va.y) ** 2).mean().sqrt().item()
            print(f"ep {ep + 1} train_huber={loss.item():.4f} val_rmse_log={rmse:.4f}")

    print(f"val_rmse_log={rmse:.4f}")


if __name__ == "__main__":
    main()
