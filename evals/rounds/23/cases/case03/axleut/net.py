import torch.nn as nn


class EchoNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, ch, 7, padding=3), nn.BatchNorm1d(ch), nn.ReLU(),
            nn.Conv1d(ch, ch, 7, padding=3), nn.BatchNorm1d(ch), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(ch, 2 * ch, 5, padding=2), nn.BatchNorm1d(2 * ch), nn.ReLU(), nn.MaxPool1d(2),
        )
        self.head = nn.Sequential(nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(2 * ch, 1))

    def forward(self, x):
        return self.head(self.features(x)).squeeze(-1)
