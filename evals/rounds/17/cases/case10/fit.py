import argparse

import torch
from torch import nn

from portfolio import simulate


class RateNet(nn.Module):
    """log yearly claim rate; exposure enters as an offset."""

    def __init__(self, n_in, width=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_in, width), nn.Tanh(), nn.Linear(width, 1))
        nn.init.constant_(self.mlp[-1].bias, -2.0)

    def forward(self, x, exposure):
        log_rate = self.mlp(x).squeeze(-1).clamp(-12.0, 6.0)
        return log_rate + torch.log(exposure)


def poisson_loglik(log_mu, counts):
    """Poisson log-likelihood per policy, up to the log(k!) constant."""
    return counts * log_mu - torch.exp(log_mu)


def poisson_deviance(log_mu, counts):
    mu = torch.exp(log_mu)
    term = torch.where(counts > 0, counts * torch.log(counts / mu), torch.zeros_like(mu))
    return (2 * (term - (counts - mu))).mean().item()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--policies", type=int, default=40000)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    X, expo, k = simulate(args.policies, args.seed)
    X, expo, k = map(torch.from_numpy, (X, expo, k))
    n_val = len(X) // 4
    tr, va = slice(n_val, None), slice(0, n_val)

    model = RateNet(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    ntr = len(X) - n_val
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(ntr) + n_val
        for i in range(0, ntr, args.batch):
            idx = perm[i:i + args.batch]
            opt.zero_grad()
            log_mu = model(X[idx], expo[idx])
            loss = poisson_loglik(log_mu, k[idx]).mean()
            loss.backward()
            opt.step()
        if (epoch + 1) % 10 == 0:
            model.eval()
            with torch.no_grad():
                dev = poisson_deviance(model(X[va], expo[va]), k[va])
            print(f"epoch {epoch + 1} val_poisson_dev={dev:.4f}")

    model.eval()
    with torch.no_grad():
        dev = poisson_deviance(model(X[va], expo[va]), k[va])
        base = poisson_deviance(torch.log(k[tr].sum() / expo[tr].sum() * expo[va]), k[va])
    print(f"baseline (portfolio rate) dev={base:.4f}")
    print(f"val_poisson_dev={dev:.4f}")


if __name__ == "__main__":
    main()
