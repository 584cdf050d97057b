"""Train the 7-day reservoir level forecaster."""
import argparse
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn

from hydro import simulate


@dataclass
class Settings:
    years: int = 16
    window: int = 21
    horizon: int = 7
    hidden: int = 64
    epochs: int = 25
    batch_size: int = 64
    lr: float = 2e-3
    seed: int = 4


def make_windows(level, inflow, doy, window, horizon):
    """Slide over the record; inputs are the last `window` days, the target is the
    level `horizon` days on."""
    xs, ys, last = [], [], []
    for start in range(len(level) - window - horizon):
        seg = slice(start, start + window)
        feats = np.concatenate([
            level[seg], np.log1p(inflow[seg]),
            [np.sin(2 * np.pi * doy[start + window - 1] / 365),
             np.cos(2 * np.pi * doy[start + window - 1] / 365)],
        ])
        xs.append(feats)
        ys.append(level[start + horizon])
        last.append(level[start + window - 1])
    return (np.asarray(xs, dtype=np.float32), np.asarray(ys, dtype=np.float32),
            np.asarray(last, dtype=np.float32))


class LevelMLP(nn.Module):
    def __init__(self, n_in, hidden):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.GELU(),
                                 nn.Linear(hidden, hidden), nn.GELU(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int)
    ap.add_argument("--seed", type=int)
    a = ap.parse_args()
    s = Settings()
    if a.epochs:
        s.epochs = a.epochs
    if a.seed is not None:
        s.seed = a.seed
    torch.manual_seed(s.seed)

    level, inflow, doy = simulate(365 * s.years, seed=s.seed)
    X, y, last = make_windows(level, inflow, doy, s.window, s.horizon)
    cut = int(0.8 * len(y))
    # stats from the training years only
    mu, sd = X[:cut].mean(0), X[:cut].std(0) + 1e-6
    # the net predicts the change from today's level, not the level itself
    delta = y - last
    ymu, ysd = delta[:cut].mean(), delta[:cut].std()
    Xn = torch.from_numpy((X - mu) / sd)
    yn = torch.from_numpy((delta - ymu) / ysd)
    xtr, ytr, xva = Xn[:cut], yn[:cut], Xn[cut:]

    model = LevelMLP(X.shape[1], s.hidden)
    opt = torch.optim.AdamW(model.parameters(), lr=s.lr, weight_decay=1e-2)
    for epoch in range(s.epochs):
        model.train()
        perm = torch.randperm(cut)
        for i in range(0, cut, s.batch_size):
            idx = perm[i:i + s.batch_size]
            loss = nn.functional.smooth_l1_loss(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1} loss {loss.item():.4f}")

    model.eval()
    with torch.no_grad():
        pred = last[cut:] + model(xva).numpy() * ysd + ymu
    mae = np.abs(pred - y[cut:]).mean()
    persistence = np.abs(last[cut:] - y[cut:]).mean()
    print(f"val_mae={mae:.4f}")
    print(f"val_skill={1 - mae / persistence:.4f}")


if __name__ == "__main__":
    main()
