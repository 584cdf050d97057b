import argparse

import numpy as np
import torch
import torch.nn as nn

from survey import FEATURES, load_survey


class VolumeRegressor(nn.Module):
    def __init__(self, n_in, hidden=64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.mlp(x)


def rmse_loss(pred, target):
    return torch.sqrt(torch.mean((pred - target) ** 2) + 1e-8)


def r2(pred, target):
    ss_res = ((target - pred) ** 2).sum()
    ss_tot = ((target - target.mean()) ** 2).sum()
    return 1 - (ss_res / ss_tot).item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--bs", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)

    X, vol = load_survey()
    y = np.log1p(vol)
    rng = np.random.default_rng(args.seed)
    perm = rng.permutation(len(X))
    tr, va = perm[:2400], perm[2400:]
    mu, sd = X[tr].mean(0), X[tr].std(0)
    Xt = torch.from_numpy((X - mu) / sd)
    yt = torch.from_numpy(y)

    model = VolumeRegressor(len(FEATURES))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    tr_t = torch.from_numpy(tr)
    for epoch in range(args.epochs):
        model.train()
        shuffled = tr_t[torch.randperm(len(tr_t))]
        for i in range(0, len(shuffled), args.bs):
            idx = shuffled[i:i + args.bs]
            loss = rmse_loss(model(Xt[idx]), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            pv = model(Xt[va]).squeeze(-1)
            score = r2(pv, yt[va])
        if (epoch + 1) % 5 == 0:
            print(f"epoch {epoch + 1} train_rmse={loss.item():.3f} val_r2_log={score:.4f}")
    print(f"val_r2_log={score:.4f}")


if __name__ == "__main__":
    main()
