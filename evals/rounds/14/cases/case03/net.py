import torch
import torch.nn as nn


class SliceEncoder(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.AdaptiveMaxPool2d(1), nn.Flatten(),
        )

    def forward(self, x):
        return self.conv(x)


class Net25D(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.encoder = SliceEncoder(width)
        self.classifier = nn.Sequential(nn.Linear(2 * width, 32), nn.ReLU(), nn.Linear(32, 2))

    def forward(self, vol):
        n, d, h, w = vol.shape
        slices = vol.reshape(n * d, 1, h, w)
        feats = self.encoder(slices)                 # [n*d, width]
        per_slice = feats.reshape(d, n, -1)          # slices along z
        pooled = torch.cat([per_slice.mean(0), per_slice.amax(0)], dim=1)
        return self.classifier(pooled)
