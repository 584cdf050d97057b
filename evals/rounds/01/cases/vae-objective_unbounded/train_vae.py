import argparse
import math
import time

import numpy as np
import torch
import torch.nn as nn

from elbo import negative_elbo


# ----------------------------------------------------------------------------- data
def latent_shapes(n, rng):
    kind = rng.integers(0, 3, n)
    t = rng.uniform(0, math.pi, n)
    z = np.zeros((n, 2))
    z[kind == 0] = np.c_[np.cos(t), np.sin(t)][kind == 0]
    z[kind == 1] = np.c_[1 - np.cos(t), 0.5 - np.sin(t)][kind == 1]
    a = rng.uniform(0, 2 * math.pi, n)
    z[kind == 2] = (np.c_[2.5 * np.cos(a), 2.5 * np.sin(a)] + [0.5, 0.25])[kind == 2]
    return z + rng.normal(0, 0.05, z.shape)


def make_data(n, dim, seed, rng_seed):
    # the ambient map is fixed by `seed`; the sampled points by `rng_seed`
    g = np.random.default_rng(seed)
    W1, b1 = g.normal(0, 1.0, (2, 32)), g.normal(0, 0.5, 32)
    W2 = g.normal(0, 1 / np.sqrt(32), (32, dim))
    rng = np.random.default_rng(rng_seed)
    z = latent_shapes(n, rng)
    x = np.tanh(z @ W1 + b1) @ W2
    x = x + rng.normal(0, 0.05, x.shape)
    return torch.tensor(x, dtype=torch.float32)


# ---------------------------------------------------------------------------- model
class VAE(nn.Module):
    def __init__(self, x_dim, z_dim=2, hidden=96):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(x_dim, hidden), nn.ELU(), nn.Linear(hidden, hidden), nn.ELU())
        self.to_mu = nn.Linear(hidden, z_dim)
        self.to_logvar = nn.Linear(hidden, z_dim)
        self.dec = nn.Sequential(nn.Linear(z_dim, hidden), nn.ELU(), nn.Linear(hidden, hidden), nn.ELU(),
                                 nn.Linear(hidden, x_dim))
        self.log_sigma = nn.Parameter(torch.full((x_dim,), -1.0))   # learned observation noise
        self.z_dim = z_dim

    def encode(self, x):
        h = self.enc(x)
        return self.to_mu(h), self.to_logvar(h)

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar

    @torch.no_grad()
    def sample(self, n):
        return self.dec(torch.randn(n, self.z_dim))


def mmd_rbf(a, b, scales=(0.2, 0.5, 1.0, 2.0)):
    def k(x, y):
        d = torch.cdist(x, y).pow(2)
        return sum(torch.exp(-d / (2 * s * s)) for s in scales)
    return (k(a, a).mean() + k(b, b).mean() - 2 * k(a, b).mean()).item()


# ----------------------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n-train", type=int, default=5000)
    ap.add_argument("--n-val", type=int, default=1500)
    ap.add_argument("--dim", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--beta", type=float, default=1.0)
    ap.add_argument("--anneal-epochs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    xtr = make_data(args.n_train, args.dim, seed=1234, rng_seed=args.seed)
    xva = make_data(args.n_val, args.dim, seed=1234, rng_seed=args.seed + 100)
    mu_x, sd_x = xtr.mean(0), xtr.std(0)
    xtr, xva = (xtr - mu_x) / sd_x, (xva - mu_x) / sd_x

    model = VAE(args.dim)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    g = torch.Generator().manual_seed(args.seed)
    t0 = time.time()
    for epoch in range(1, args.epochs + 1):
        model.train()
        beta = args.beta * min(1.0, epoch / max(1, args.anneal_epochs))
        perm = torch.randperm(len(xtr), generator=g)
        tot = 0.0
        for s in range(0, len(xtr), args.batch_size):
            xb = xtr[perm[s:s + args.batch_size]]
            x_mean, mu, logvar = model(xb)
            loss, rec, kl = negative_elbo(xb, x_mean, model.log_sigma, mu, logvar, beta)
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(xb)
        if epoch % 5 == 0:
            model.eval()
            with torch.no_grad():
                x_mean, mu, logvar = model(xva)
                _, rec, kl = negative_elbo(xva, x_mean, model.log_sigma, mu, logvar)
                mse = (x_mean - xva).pow(2).mean().item()
                mmd = mmd_rbf(model.sample(1000), xva[:1000])
            print(f"epoch {epoch:3d} beta {beta:.2f} loss {tot / len(xtr):9.3f} val_rec_mse {mse:.4f} "
                  f"val_kl {kl.item():8.3f} val_mmd {mmd:.4f} [{time.time() - t0:.1f}s]")

    model.eval()
    torch.manual_seed(0)
    with torch.no_grad():
        x_mean, _, _ = model(xva)
        print(f"val_rec_mse={(x_mean - xva).pow(2).mean().item():.4f}")
        print(f"val_mmd={mmd_rbf(model.sample(1500), xva):.4f}")


if __name__ == "__main__":
    main()
