import torch
from torch import nn


class YieldCNN(nn.Module):
    def __init__(self, in_bands=4, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_bands, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(2 * width, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.head(self.features(x))


def log_cosh(pred, target):
    """Smooth L1-like loss: quadratic near 0, linear in the tails."""
    return torch.log(torch.cosh(pred - target)).mean()
