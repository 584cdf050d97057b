import torch
from torch import nn


class ClaimRate(nn.Module):
    """log-rate network; the exposure offset is added outside the network."""

    def __init__(self, n_in, hidden, init_log_rate=0.0):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        nn.init.zeros_(self.net[-1].weight)
        nn.init.constant_(self.net[-1].bias, init_log_rate)

    def forward(self, x, log_exposure):
        return self.net(x).squeeze(-1) + log_exposure          # log mu


def poisson_deviance(log_mu, y):
    mu = log_mu.exp()
    term = torch.where(y > 0, y * torch.log(y / mu), torch.zeros_like(y))
    return (2 * (term - (y - mu))).mean()
