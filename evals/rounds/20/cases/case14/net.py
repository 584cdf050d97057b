import torch
import torch.nn as nn


class ResBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.c1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.c2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        return torch.relu(x + self.c2(torch.relu(self.c1(x))))


class ValueNet(nn.Module):
    def __init__(self, size=5, ch=32, n_blocks=3):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU())
        self.blocks = nn.Sequential(*[ResBlock(ch) for _ in range(n_blocks)])
        # AlphaZero-style value head: 1x1 conv down to 2 planes, then a small MLP
        self.head = nn.Sequential(nn.Conv2d(ch, 2, 1), nn.ReLU(), nn.Flatten(),
                                  nn.Linear(2 * size * size, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.head(self.blocks(self.stem(x))).squeeze(-1)
