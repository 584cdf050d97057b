import torch
import torch.nn as nn
import torch.nn.functional as F


class CVAE(nn.Module):
    def __init__(self, x_dim, n_classes, z_dim=8, hidden=256):
        super().__init__()
        self.n_classes = n_classes
        self.enc = nn.Sequential(nn.Linear(x_dim + n_classes, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU())
        self.to_mu = nn.Linear(hidden, z_dim)
        self.to_logvar = nn.Linear(hidden, z_dim)
        self.dec = nn.Sequential(nn.Linear(z_dim + n_classes, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, x_dim))

    def encode(self, x, y):
        h = self.enc(torch.cat([x, F.one_hot(y, self.n_classes).float()], dim=1))
        return self.to_mu(h), self.to_logvar(h).clamp(-8.0, 8.0)   # keep exp() finite

    def decode(self, z, y):
        """Bernoulli logits for every pixel."""
        return self.dec(torch.cat([z, F.one_hot(y, self.n_classes).float()], dim=1))

    def forward(self, x, y):
        mu, logvar = self.encode(x, y)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.decode(z, y), mu, logvar
