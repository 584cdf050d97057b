import torch
from torch import nn


class EMGNet(nn.Module):
    def __init__(self, channels, n_classes, width=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(channels, width, kernel_size=5, padding=2), nn.ReLU(),
            nn.Conv1d(width, width, kernel_size=5, padding=2), nn.ReLU(),
        )
        self.head = nn.Linear(2 * width, n_classes)

    def forward(self, x):
        h = self.features(x)
        # mean and RMS pooling over time
        pooled = torch.cat([h.mean(dim=2), h.pow(2).mean(dim=2).sqrt()], dim=1)
        return self.head(pooled)
