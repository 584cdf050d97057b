import torch.nn as nn


class CurveNet(nn.Module):
    def __init__(self, n_classes, width=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, width, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width, 3, padding=1), nn.ReLU(),
            nn.AdaptiveMaxPool1d(1), nn.Flatten(),
            nn.Linear(width, n_classes),
        )

    def forward(self, x):
        return self.net(x)
