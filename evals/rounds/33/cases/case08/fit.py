import argparse

import torch
import torch.nn as nn

from portfolio import simulate


class FreqNet(nn.Module):
    """Linear predictor plus a small nonlinear correction."""

    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, 1)
        self.mlp = nn.Sequential(nn.Linear(d, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, x):
        return self.lin(x) + 0.1 * self.mlp(x)      # log-rate per unit exposure

    def predict_rate(self, x, exposure):
        return torch.exp(self(x).squeeze(-1) + torch.log(exposure))


def poisson_loss(eta, claims, exposure):
    log_mu = eta + torch.log(exposure)
    return (torch.exp(log_mu) - claims * log_mu).mean()


def deviance(mu, y):
    term = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return float((2 * (term - (y - mu))).mean())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    X, E, y = simulate(6000, seed=11)
    Xv, Ev, yv = simulate(2000, seed=12)
    model = FreqNet(X.shape[1])
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for ep in range(args.epochs):
        perm = torch.randperm(len(X))
        for i in range(0, len(X), 256):
            b = perm[i:i + 256]
            loss = poisson_loss(model(X[b]), y[b], E[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 10 == 9:
            with torch.no_grad():
                print(f"epoch {ep + 1} loss={loss.item():.4f} holdout_deviance={deviance(model.predict_rate(Xv, Ev), yv):.4f}")
    with torch.no_grad():
        null = deviance(torch.full_like(yv, float(y.sum() / E.sum())) * Ev, yv)
        dev = deviance(model.predict_rate(Xv, Ev), yv)
    print(f"null_deviance={null:.4f}")
    print(f"holdout_deviance={dev:.4f}")


if __name__ == "__main__":
    main()
