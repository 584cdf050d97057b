import torch
import torch.nn as nn
import torch.nn.functional as F


class CumulativeLinkHead(nn.Module):
    """score(x) - theta_k, with theta increasing (first + cumulative softplus)."""

    def __init__(self, d_in, n_classes):
        super().__init__()
        self.score = nn.Linear(d_in, 1)
        self.theta0 = nn.Parameter(torch.tensor(-1.0))
        self.gaps = nn.Parameter(torch.zeros(n_classes - 2))

    def thresholds(self):
        return torch.cat([self.theta0.view(1), self.theta0 + torch.cumsum(F.softplus(self.gaps), 0)])

    def forward(self, h):
        return self.score(h) - self.thresholds()          # (N, K-1) logits of P(y > k)


class OrdinalNet(nn.Module):
    def __init__(self, d_in, n_classes, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = CumulativeLinkHead(hidden, n_classes)

    def forward(self, x):
        return self.head(self.body(x))


def cumulative_targets(y, n_classes):
    """grade y -> (N, K-1) binary targets [y > 0, y > 1, ...]."""
    ks = torch.arange(n_classes - 1, device=y.device)
    return (y.unsqueeze(1) > ks).float()


def ordinal_loss(cum_logits, y):
    return F.binary_cross_entropy_with_logits(cum_logits, cumulative_targets(y, cum_logits.shape[1] + 1))
