import torch.nn as nn


class SzNet(nn.Module):
    def __init__(self, n_ch=8, width=24):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(n_ch, width, 7, stride=2, padding=3), nn.ReLU(),
            nn.Conv1d(width, width, 7, stride=2, padding=3), nn.ReLU(),
            nn.Conv1d(width, width, 5, stride=2, padding=2), nn.ReLU(),
            nn.AdaptiveMaxPool1d(1), nn.Flatten(),
        )
        self.classifier = nn.Linear(width, 1)

    def forward(self, x):
        return self.classifier(self.features(x)).squeeze(-1)
