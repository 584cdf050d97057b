import torch.nn as nn


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.GroupNorm(4, cout), nn.ReLU(inplace=True))


class TinyFCN(nn.Module):
    def __init__(self, n_classes=3, width=16):
        super().__init__()
        self.body = nn.Sequential(block(3, width), block(width, width), block(width, width))
        self.classifier = nn.Conv2d(width, n_classes, 1)

    def forward(self, x):
        return self.classifier(self.body(x))  # [B, C, H, W]
