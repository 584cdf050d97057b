import torch
import torch.nn as nn


class FeatureNets(nn.Module):
    """All per-feature MLPs evaluated at once with batched weights.

    Equivalent to a ModuleList of F tiny MLPs (1 -> h -> h -> 1), but a single
    einsum per layer instead of a Python loop over features.
    """

    def __init__(self, n_features, hidden=32):
        super().__init__()
        F_, h = n_features, hidden
        self.w1 = nn.Parameter(torch.randn(F_, 1, h) * 1.0)
        self.b1 = nn.Parameter(torch.zeros(F_, h))
        self.w2 = nn.Parameter(torch.randn(F_, h, h) / h ** 0.5)
        self.b2 = nn.Parameter(torch.zeros(F_, h))
        self.w3 = nn.Parameter(torch.randn(F_, h, 1) / h ** 0.5)

    def forward(self, x):  # x: (B, F)
        h = torch.relu(torch.einsum("bf,fih->bfh", x, self.w1) + self.b1)
        h = torch.relu(torch.einsum("bfi,fih->bfh", h, self.w2) + self.b2)
        return torch.einsum("bfi,fio->bfo", h, self.w3).squeeze(-1)  # (B, F) contributions


class NAM(nn.Module):
    def __init__(self, n_features, hidden=32, feature_dropout=0.05):
        super().__init__()
        self.features = FeatureNets(n_features, hidden)
        self.bias = nn.Parameter(torch.zeros(1))
        self.feature_dropout = nn.Dropout(feature_dropout)

    def forward(self, x):
        contrib = self.features(x)
        logit = self.feature_dropout(contrib).sum(dim=1) + self.bias
        return logit, contrib
