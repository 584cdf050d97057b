import torch
import torch.nn as nn
import torch.nn.functional as F


class MorphNet(nn.Module):
    def __init__(self, n_classes=4, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(2 * width, 2 * width, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(2 * width, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))

    def predict_proba(self, x):
        return F.softmax(self(x), dim=0)

    @torch.no_grad()
    def predict(self, x):
        return self(x).argmax(dim=1)
