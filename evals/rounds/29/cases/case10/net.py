import torch.nn as nn


class HailNet(nn.Module):
    def __init__(self, n_classes=3, ch=8):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv3d(1, ch, 3, padding=1), nn.BatchNorm3d(ch), nn.ReLU(),
            nn.MaxPool3d(2),
            nn.Conv3d(ch, 2 * ch, 3, padding=1), nn.BatchNorm3d(2 * ch), nn.ReLU(),
            nn.AdaptiveAvgPool3d(1),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.3),
                                        nn.Linear(2 * ch, n_classes))

    def forward(self, x):
        return self.classifier(self.features(x))
