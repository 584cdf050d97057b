import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, width, dropout):
        super().__init__()
        self.net = nn.Sequential(
            nn.LayerNorm(width),
            nn.Linear(width, width),
            nn.GELU(),
            nn.Dropout(dropout),
            nn.Linear(width, width),
        )

    def forward(self, x):
        return x + self.net(x)


class SignalNet(nn.Module):
    def __init__(self, n_in, n_classes, hidden=128, blocks=2, dropout=0.1):
        super().__init__()
        self.stem = nn.Linear(n_in, hidden)
        self.blocks = nn.Sequential(*[Block(hidden, dropout) for _ in range(blocks)])
        self.head = nn.Sequential(nn.LayerNorm(hidden), nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))
