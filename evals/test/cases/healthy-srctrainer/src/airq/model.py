import torch.nn as nn


class ResidualBlock(nn.Module):
    def __init__(self, dim, dropout):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Dropout(dropout), nn.Linear(2 * dim, dim))

    def forward(self, x):
        return x + self.ff(self.norm(x))


class NowcastMLP(nn.Module):
    def __init__(self, n_features, dim=64, depth=3, dropout=0.05):
        super().__init__()
        self.inp = nn.Linear(n_features, dim)
        self.blocks = nn.Sequential(*[ResidualBlock(dim, dropout) for _ in range(depth)])
        self.out = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 1))

    def forward(self, x):
        return self.out(self.blocks(self.inp(x))).squeeze(-1)
