import argparse

import numpy as np
import torch
import torch.nn as nn

from simulate import customers


class TARNet(nn.Module):
    def __init__(self, d_in, rep=64, head=32):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(d_in, rep), nn.ELU(), nn.Linear(rep, rep), nn.ELU())

        def make_head():
            return nn.Sequential(nn.Linear(rep, head), nn.ELU(), nn.Linear(head, 1))

        self.h0 = make_head()
        self.h1 = make_head()

    def forward(self, x):
        r = self.phi(x)
        return self.h0(r).squeeze(-1), self.h1(r).squeeze(-1)


def masked_mse(pred, y, mask):
    return ((pred - y) ** 2 * mask).sum() / mask.sum().clamp_min(1.0)


def factual_loss(mu0, mu1, y, t):
    loss_treated = masked_mse(mu1, y, t)
    loss_control = masked_mse(mu0, y, t)
    return loss_treated + loss_control


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)

    x, t, y, _ = customers(4000, seed=21)
    xt, tt, yt, tau_t = customers(1000, seed=22)
    x, t, y = map(torch.from_numpy, (x, t, y))
    model = TARNet(x.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=1e-5)

    n = len(x)
    for epoch in range(args.epochs):
        perm = torch.randperm(n)
        total = 0.0
        for i in range(0, n, args.batch_size):
            b = perm[i:i + args.batch_size]
            mu0, mu1 = model(x[b])
            loss = factual_loss(mu0, mu1, y[b], t[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(b)
        if (epoch + 1) % 10 == 0:
            print(f"epoch {epoch + 1}: factual_loss={total / n:.4f}")

    model.eval()
    with torch.no_grad():
        mu0, mu1 = model(torch.from_numpy(xt))
        tau_hat = (mu1 - mu0).numpy()
    pehe = float(np.sqrt(np.mean((tau_hat - tau_t) ** 2)))
    print(f"ate_err={abs(tau_hat.mean() - tau_t.mean()):.4f}")
    print(f"pehe={pehe:.4f}")


if __name__ == "__main__":
    main()
