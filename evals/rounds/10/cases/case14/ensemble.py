import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def target_fn(x):
    return np.sin(2.5 * x) + 0.3 * x ** 2


def noise_std(x):
    return 0.05 + 0.25 * (1 + np.tanh(2 * x)) / 2


def make_data(n, rng):
    x = rng.uniform(-2.5, 2.5, size=(n, 1))
    y = target_fn(x) + noise_std(x) * rng.normal(size=(n, 1))
    return torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)


class Member(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(1, hidden), nn.BatchNorm1d(hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden), nn.SiLU(),
        )
        self.mean = nn.Linear(hidden, 1)
        self.raw_var = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.body(x)
        return self.mean(h), F.softplus(self.raw_var(h)) + 1e-4


def train_member(model, x, y, epochs, lr, batch_size, gen):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    nll = nn.GaussianNLLLoss()
    for _ in range(epochs):
        model.train()
        perm = torch.randperm(len(x), generator=gen)
        for i in range(0, len(x), batch_size):
            idx = perm[i:i + batch_size]
            mu, var = model(x[idx])
            loss = nll(mu, y[idx], var)
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


@torch.no_grad()
def predict(members, x, batch_size=50):
    [m.eval for m in members]
    mus, vars_ = [], []
    for i in range(0, len(x), batch_size):
        outs = [m(x[i:i + batch_size]) for m in members]
        mu = torch.stack([o[0] for o in outs])
        var = torch.stack([o[1] for o in outs])
        mix_mu = mu.mean(0)
        mix_var = (var + mu ** 2).mean(0) - mix_mu ** 2
        mus.append(mix_mu)
        vars_.append(mix_var)
    return torch.cat(mus), torch.cat(vars_)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--members", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    x, y = make_data(2000, rng)
    xt, yt = make_data(1000, rng)
    order = torch.argsort(xt[:, 0])
    xt, yt = xt[order], yt[order]

    members = []
    for k in range(args.members):
        torch.manual_seed(args.seed * 100 + k)
        members.append(train_member(Member(), x, y, args.epochs, args.lr, args.batch_size, gen))
        print(f"member {k} trained")

    mu, var = predict(members, xt)
    nll = 0.5 * (torch.log(2 * np.pi * var) + (yt - mu) ** 2 / var).mean().item()
    z = (yt - mu).abs() / var.sqrt()
    coverage = (z < 1.645).float().mean().item()
    print(f"test_nll={nll:.4f} coverage90={coverage:.3f}")


if __name__ == "__main__":
    main()
