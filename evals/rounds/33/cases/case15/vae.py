import torch
import torch.nn as nn
import torch.nn.functional as F


class TraceVAE(nn.Module):
    def __init__(self, T=64, z=6, h=96):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(T, h), nn.ELU(), nn.Linear(h, h), nn.ELU())
        self.mu = nn.Linear(h, z)
        self.logvar = nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ELU(), nn.Linear(h, h), nn.ELU(), nn.Linear(h, T))

    def encode(self, x):
        h = self.enc(x)
        return self.mu(h), self.logvar(h)

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


def recon_term(x_hat, x):
    return F.mse_loss(x_hat, x, reduction="sum") / x.shape[0]


def kl_term(mu, logvar):
    # closed form KL(q(z|x) || N(0, I)), averaged over the batch
    return 0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / mu.shape[0]
