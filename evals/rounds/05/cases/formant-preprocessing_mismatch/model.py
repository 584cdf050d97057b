import torch.nn as nn


class SpecCNN(nn.Module):
    def __init__(self, n_classes, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(2 * width, 2 * width, 3, padding=1), nn.ReLU(),
        )
        self.pool = nn.AdaptiveAvgPool2d((4, 1))   # keep coarse frequency layout, pool time
        self.head = nn.Linear(2 * width * 4, n_classes)

    def forward(self, x):
        h = self.pool(self.features(x))
        return self.head(h.flatten(1))
