import argparse

import numpy as np
import torch
from torch import nn


class FreqNet(nn.Module):
    def __init__(self, n_in, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x, log_exposure):
        # log E[claims] = log rate per trestle-month + log exposure;
        # the clamp keeps exp() finite on silly inputs at scoring time
        log_rate = self.net(x).squeeze(-1).clamp(-15.0, 2.0)
        return log_rate + log_exposure


def poisson_deviance(y, mu):
    y_log = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return 2 * (y_log - (y - mu)).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="portfolio.npz")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    d = np.load(args.data)
    x = torch.tensor(d["x"])
    log_e = torch.log(torch.tensor(d["exposure"]))
    y = torch.tensor(d["claims"])

    g = torch.Generator().manual_seed(args.seed)
    perm = torch.randperm(len(y), generator=g)
    va, tr = perm[: len(y) // 5], perm[len(y) // 5:]
    num = slice(0, 4)  # continuous columns; gear one-hots stay as they are
    mu, sd = x[tr, num].mean(0), x[tr, num].std(0)
    x[:, num] = (x[:, num] - mu) / sd

    model = FreqNet(x.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    nll = nn.PoissonNLLLoss(log_input=True)

    for epoch in range(args.epochs):
        model.train()
        order = tr[torch.randperm(len(tr), generator=g)]
        for i in range(0, len(order), 256):
            b = order[i:i + 256]
            log_mu = model(x[b], log_e[b])
            loss = nll(y[b], log_mu)
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            dev = poisson_deviance(y[va], torch.exp(model(x[va], log_e[va]))).item()
        if epoch % 10 == 9:
            print(f"epoch {epoch + 1} nll={loss.item():.4f} val_deviance={dev:.4f}")

    base = poisson_deviance(y[va], torch.full_like(y[va], 1.0) * y[tr].sum() / torch.exp(log_e[tr]).sum() * torch.exp(log_e[va])).item()
    print(f"exposure-only baseline deviance={base:.4f}")
    print(f"val_deviance={dev:.4f}")


if __name__ == "__main__":
    main()
