import torch.nn as nn


class ReedNet(nn.Module):
    def __init__(self, n_reeds=4, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, width, 7, padding=3), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width * 2, 5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width * 2, width * 2, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
        )
        self.head = nn.Linear(width * 2, n_reeds)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))
