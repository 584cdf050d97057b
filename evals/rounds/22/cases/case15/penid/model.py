import torch
from torch import nn


class StrokeSetEncoder(nn.Module):
    """Per-stroke MLP, then mean + max pooling over the session's strokes."""

    def __init__(self, n_feat, n_users, hidden=64):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(n_feat, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.rho = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_users))

    def forward(self, x):                     # x: (B, strokes, feat)
        h = self.phi(x)
        pooled = torch.cat([h.mean(1), h.amax(1)], dim=-1)
        return self.rho(pooled)
