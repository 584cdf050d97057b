import torch.nn as nn


class Block(nn.Module):
    def __init__(self, c, dilation):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=dilation, dilation=dilation)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(x + self.conv2(self.act(self.conv1(x))))


class OwnershipNet(nn.Module):
    def __init__(self, channels=32, blocks=4, n_classes=3):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, channels, 3, padding=1), nn.ReLU())
        self.body = nn.Sequential(*[Block(channels, 1 + (i % 2)) for i in range(blocks)])
        # per-point MLP head shared over the board
        self.head = nn.Sequential(nn.Linear(channels, channels), nn.ReLU(), nn.Linear(channels, n_classes))

    def forward(self, x):
        B, _, S, _ = x.shape
        h = self.body(self.stem(x))                  # (B, C, S, S)
        points = h.reshape(B, S * S, -1)             # one feature vector per intersection
        logits = self.head(points)                   # (B, S*S, n_classes)
        return logits.transpose(1, 2).reshape(B, -1, S, S)
