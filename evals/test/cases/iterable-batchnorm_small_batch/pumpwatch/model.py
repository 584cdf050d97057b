from torch import nn


class PumpCNN(nn.Module):
    def __init__(self, in_channels=2, channels=16, n_states=4):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(in_channels, channels, 7, padding=3),
            nn.BatchNorm1d(channels),
            nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(channels, channels * 2, 5, padding=2),
            nn.BatchNorm1d(channels * 2),
            nn.ReLU(),
            nn.AdaptiveAvgPool1d(1),
            nn.Flatten(),
            nn.Linear(channels * 2, n_states),
        )

    def forward(self, x):
        return self.net(x)
