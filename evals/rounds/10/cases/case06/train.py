import argparse
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from simulate import generate

DATA = "data/loops.npz"


def featurize(d):
    h = d["hour"] / 24.0 * 2 * np.pi
    wd = np.eye(7)[d["weekday"]]
    cols = [np.sin(h), np.cos(h), np.sin(2 * h), np.cos(2 * h),
            d["lanes"] / 4.0, np.log1p(d["rain"]), d["urban"]]
    return np.concatenate([np.stack(cols, 1), wd], 1).astype(np.float32)


class RateNet(nn.Module):
    """Returns log-rate per hour, shape (batch, 1)."""

    def __init__(self, d_in, hidden=64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, x):
        return self.mlp(x)


def poisson_deviance(y, mu):
    y, mu = np.asarray(y, float), np.asarray(mu, float)
    term = np.where(y > 0, y * np.log(np.maximum(y, 1e-12) / mu), 0.0)
    return 2.0 * np.sum(term - (y - mu))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch-size", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    if not os.path.exists(DATA):
        generate(path=DATA)
    torch.manual_seed(args.seed)
    d = dict(np.load(DATA))

    x = torch.from_numpy(featurize(d))
    y = torch.from_numpy(d["counts"]).float()
    log_exposure = torch.from_numpy(np.log(d["minutes"] / 60.0)).float()

    rng = np.random.default_rng(args.seed)
    perm = rng.permutation(len(y))
    n_val = len(y) // 5
    va, tr = perm[:n_val], perm[n_val:]

    model = RateNet(x.shape[1])
    with torch.no_grad():  # start the intercept at the pooled log-rate
        model.mlp[-1].bias.fill_(float(torch.log(y[tr].sum() / log_exposure[tr].exp().sum())))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        order = tr[rng.permutation(len(tr))]
        total = 0.0
        for i in range(0, len(order), args.batch_size):
            b = torch.from_numpy(order[i:i + args.batch_size])
            log_mu = model(x[b]) + log_exposure[b]
            loss = F.poisson_nll_loss(log_mu, y[b], log_input=True, full=False)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(b)
        if epoch % 10 == 9:
            print(f"epoch {epoch+1} train_nll={total/len(tr):.4f}")

    model.eval()
    with torch.no_grad():
        vb = torch.from_numpy(va)
        mu = (model(x[vb]).squeeze(-1) + log_exposure[vb]).exp().numpy()
    yv = y[vb].numpy()
    null_mu = np.full_like(yv, yv.sum() / np.exp(log_exposure[vb].numpy()).sum()) * np.exp(log_exposure[vb].numpy())
    d2 = 1.0 - poisson_deviance(yv, mu) / poisson_deviance(yv, null_mu)
    print(f"val_d2={d2:.4f}")


if __name__ == "__main__":
    main()
