import torch.nn as nn


class VoxelNet(nn.Module):
    def __init__(self, c=8, n_classes=3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv3d(1, c, 3, padding=1), nn.ReLU(), nn.MaxPool3d(2),
            nn.Conv3d(c, 2 * c, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool3d(1))
        self.classifier = nn.Linear(2 * c, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))
