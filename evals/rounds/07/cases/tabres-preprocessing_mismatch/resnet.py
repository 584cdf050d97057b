import torch.nn as nn


class Block(nn.Module):
    def __init__(self, width, dropout):
        super().__init__()
        self.body = nn.Sequential(
            nn.BatchNorm1d(width), nn.ReLU(), nn.Linear(width, width * 2),
            nn.ReLU(), nn.Dropout(dropout), nn.Linear(width * 2, width),
        )

    def forward(self, x):
        return x + self.body(x)


class TabResNet(nn.Module):
    def __init__(self, n_in, width=128, blocks=3, dropout=0.1, n_out=2):
        super().__init__()
        self.stem = nn.Linear(n_in, width)
        self.blocks = nn.Sequential(*[Block(width, dropout) for _ in range(blocks)])
        self.head = nn.Sequential(nn.BatchNorm1d(width), nn.ReLU(), nn.Linear(width, n_out))

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))
