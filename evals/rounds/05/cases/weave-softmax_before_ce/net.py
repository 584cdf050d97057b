import torch.nn as nn
import torch.nn.functional as F


class WeaveNet(nn.Module):
    def __init__(self, n_classes, c=16):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, c, 3, padding=1), nn.ReLU(),
            nn.Conv2d(c, 2 * c, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(2 * c, 2 * c, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(2 * c, n_classes)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))

    def predict_proba(self, x):
        return F.softmax(self.forward(x), dim=-1)
