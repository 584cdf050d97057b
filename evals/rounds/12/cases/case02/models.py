import torch
from torch import nn


def mlp(n_in, hidden, n_out):
    return nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(),
                         nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, n_out))


class PurchaseGate(nn.Module):
    """P(customer buys anything next year) -> logit."""
    def __init__(self, n_in, hidden=32):
        super().__init__()
        self.net = mlp(n_in, hidden, 1)

    def forward(self, x):
        return self.net(x).squeeze(-1)


class SpendRegressor(nn.Module):
    """E[log1p(spend) | buys]."""
    def __init__(self, n_in, hidden=32, init_level=4.0):
        super().__init__()
        self.net = mlp(n_in, hidden, 1)
        nn.init.constant_(self.net[-1].bias, init_level)

    def forward(self, x):
        return self.net(x).squeeze(-1)


@torch.no_grad()
def predict_log1p_clv(gate, reg, x):
    p = torch.sigmoid(gate(x))
    return p * reg(x)
