import torch
import torch.nn as nn


class MultiHeadRegressor(nn.Module):
    def __init__(self, d_in, trunk, head_hidden, n_heads):
        super().__init__()
        layers, d = [], d_in
        for h in trunk:
            layers += [nn.Linear(d, h), nn.SiLU()]
            d = h
        self.trunk = nn.Sequential(*layers)
        self.heads = nn.ModuleList(
            nn.Sequential(nn.Linear(d, head_hidden), nn.SiLU(), nn.Linear(head_hidden, 1)) for _ in range(n_heads)
        )

    def forward(self, x):
        h = self.trunk(x)
        return torch.cat([head(h) for head in self.heads], dim=1)
