import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

from curves import flicker_curves


class CurveVAE(nn.Module):
    def __init__(self, n_in=48, hidden=96, z_dim=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(n_in, hidden), nn.ELU(),
                                 nn.Linear(hidden, hidden), nn.ELU())
        self.mu = nn.Linear(hidden, z_dim)
        self.logvar = nn.Linear(hidden, z_dim)
        self.dec = nn.Sequential(nn.Linear(z_dim, hidden), nn.ELU(),
                                 nn.Linear(hidden, hidden), nn.ELU(),
                                 nn.Linear(hidden, n_in))

    def encode(self, x):
        h = self.enc(x)
        return self.mu(h), self.logvar(h)

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


def kl_divergence(mu, logvar):
    # closed form KL(q(z|x) || N(0, I)), summed over latent dims
    return 0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=1).mean()


def reconstruction(x_hat, x):
    return F.mse_loss(x_hat, x, reduction="none").sum(1).mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--beta", type=float, default=1.0)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    torch.manual_seed(args.seed)

    xtr = torch.from_numpy(flicker_curves(4000, seed=args.seed))
    xva = torch.from_numpy(flicker_curves(1000, seed=args.seed + 1))
    m, s = xtr.mean(0), xtr.std(0)
    xtr, xva = (xtr - m) / s, (xva - m) / s

    model = CurveVAE()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xtr))
        rec_sum = kl_sum = 0.0
        for i in range(0, len(xtr), 100):
            xb = xtr[perm[i:i + 100]]
            x_hat, mu, logvar = model(xb)
            rec = reconstruction(x_hat, xb)
            kl = kl_divergence(mu, logvar)
            loss = rec + args.beta * kl
            opt.zero_grad()
            loss.backward()
            opt.step()
            rec_sum += rec.item()
            kl_sum += kl.item()
        if epoch % 10 == 0:
            nb = len(xtr) // 100
            print(f"epoch {epoch:2d} recon {rec_sum / nb:.3f} kl {kl_sum / nb:.3f}")

    model.eval()
    torch.manual_seed(1234)
    with torch.no_grad():
        x_hat, _, _ = model(xva)
        val = F.mse_loss(x_hat, xva).item()
    print(f"val_recon_mse={val:.4f}")


if __name__ == "__main__":
    main()
