from torch import nn


class SnoreCNN(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, ch, 9, stride=2, padding=4), nn.ReLU(),
            nn.Conv1d(ch, ch, 9, stride=2, padding=4), nn.ReLU(),
            nn.Conv1d(ch, 2 * ch, 9, stride=2, padding=4), nn.ReLU(),
            nn.AdaptiveMaxPool1d(1),
        )
        self.head = nn.Linear(2 * ch, 1)

    def forward(self, x):
        return self.head(self.features(x).flatten(1)).squeeze(1)
