import argparse

import numpy as np
import torch
import torch.nn as nn

from losses import r2_score, weighted_mse
from pluck import make_plucks


class TensionNet(nn.Module):
    def __init__(self, n_in, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)


def standardize(train, *others):
    mu, sd = train.mean(0), train.std(0) + 1e-6
    return [(a - mu) / sd for a in (train,) + others]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--bass-weight", type=float, default=2.0)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    torch.manual_seed(args.seed)
    X, y = make_plucks(3000, seed=args.seed)
    n_tr = 2400
    Xtr, Xva = standardize(X[:n_tr], X[n_tr:])
    y_mu, y_sd = y[:n_tr].mean(), y[:n_tr].std()
    ytr, yva = (y[:n_tr] - y_mu) / y_sd, (y[n_tr:] - y_mu) / y_sd
    # long strings (bass) are rarer in the real harp, weight them up a bit
    w_tr = np.where(X[:n_tr, 1] > np.log(1.0), args.bass_weight, 1.0).astype(np.float32)

    Xtr, ytr, w_tr = map(torch.from_numpy, (Xtr, ytr, w_tr))
    Xva, yva = torch.from_numpy(Xva), torch.from_numpy(yva)

    model = TensionNet(Xtr.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(Xtr))
        total = 0.0
        for i in range(0, len(perm), args.batch_size):
            idx = perm[i:i + args.batch_size]
            pred = model(Xtr[idx])
            loss = weighted_mse(pred, ytr[idx], w_tr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
        if epoch % 10 == 0 or epoch == args.epochs - 1:
            model.eval()
            with torch.no_grad():
                r2 = r2_score(model(Xva).squeeze(-1), yva)
            print(f"epoch {epoch:3d} train_loss={total / len(Xtr):.4f} val_r2={r2:.4f}")

    model.eval()
    with torch.no_grad():
        r2 = r2_score(model(Xva).squeeze(-1), yva)
    print(f"val_r2={r2:.4f}")


if __name__ == "__main__":
    main()
