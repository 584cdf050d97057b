import torch
import torch.nn as nn


class SeverityNet(nn.Module):
    """MLP linear predictor with a log link: mu = exp(eta + offset)."""

    def __init__(self, n_in, hidden, dropout=0.0, base_log_mu=0.0):
        super().__init__()
        layers, d = [], n_in
        for h in hidden:
            layers += [nn.Linear(d, h), nn.ReLU(), nn.Dropout(dropout)]
            d = h
        layers.append(nn.Linear(d, 1))
        self.eta = nn.Sequential(*layers)
        # start at the portfolio mean so exp() does not blow up early on
        self.register_buffer("offset", torch.tensor(float(base_log_mu)))

    def forward(self, x):
        return torch.exp(self.eta(x).squeeze(-1) + self.offset)
