import torch.nn as nn


class WaveNet1D(nn.Module):
    def __init__(self, n_classes, width=32):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, width, 7, padding=3), nn.BatchNorm1d(width), nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(width, width, 5, padding=2), nn.BatchNorm1d(width), nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(width, 2 * width, 3, padding=1), nn.BatchNorm1d(2 * width), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
        )
        self.classifier = nn.Linear(2 * width, n_classes)

    def forward(self, x):                      # x: (batch, length)
        return self.classifier(self.features(x.unsqueeze(1)).flatten(1))
