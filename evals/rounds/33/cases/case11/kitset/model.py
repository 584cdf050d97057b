import torch
import torch.nn as nn


class AttnPool(nn.Module):
    """Single learned query attending over the set elements."""

    def __init__(self, dim):
        super().__init__()
        self.query = nn.Parameter(torch.randn(dim) / dim ** 0.5)
        self.key = nn.Linear(dim, dim)

    def forward(self, h):                      # h: (batch, items, dim)
        scores = self.key(h) @ self.query      # (batch, items)
        w = torch.softmax(scores, dim=0)
        return (w.unsqueeze(-1) * h).sum(1)


class KitEncoder(nn.Module):
    def __init__(self, d_in, d=64, n_out=4):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(d_in, d), nn.ReLU(), nn.Linear(d, d), nn.ReLU())
        self.pool = AttnPool(d)
        self.rho = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, n_out))

    def forward(self, x):
        return self.rho(self.pool(self.phi(x)))
