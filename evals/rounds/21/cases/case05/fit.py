import argparse
import torch
import torch.nn as nn
from blocks import portfolio, N_REGIONS


class ClaimRate(nn.Module):
    def __init__(self, d_in, n_regions):
        super().__init__()
        self.region = nn.Embedding(n_regions, 4)
        self.mlp = nn.Sequential(nn.Linear(d_in + 4, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, x, region, exposure):
        h = torch.cat([x, self.region(region)], 1)
        return self.mlp(h).squeeze(1) + torch.log(exposure)   # log expected claims


def poisson_loglik(log_mu, y):
    # log p(y | mu) without the log(y!) constant
    return (y * log_mu - torch.exp(log_mu)).mean()


def deviance(log_mu, y):
    mu = torch.exp(log_mu)
    term = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return (2 * (term - (y - mu))).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    tr = [torch.from_numpy(v) for v in portfolio(3000, 21)]
    va = [torch.from_numpy(v) for v in portfolio(1000, 22)]
    model = ClaimRate(tr[0].shape[1], N_REGIONS)
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    g = torch.Generator().manual_seed(a.seed)
    for ep in range(a.epochs):
        perm = torch.randperm(len(tr[0]), generator=g)
        for i in range(0, len(perm), 128):
            b = perm[i:i + 128]
            x, r, e, y = (t[b] for t in tr)
            loss = poisson_loglik(model(x, r, e), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep % 10 == 9:
            with torch.no_grad():
                dev = deviance(model(va[0], va[1], va[2]), va[3]).item()
            print(f"epoch {ep+1} loss {loss.item():.4f} val_deviance {dev:.4f}")
    print(f"val_deviance={dev:.4f}")


if __name__ == "__main__":
    main()
