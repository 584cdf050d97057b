import torch
from torch import nn


class SpinNet(nn.Module):
    """Conv front-end (downsamples 2x) followed by a GRU over time."""

    def __init__(self, n_channels=6, width=32, n_users=8):
        super().__init__()
        self.frontend = nn.Sequential(
            nn.Conv1d(n_channels, width, kernel_size=5, padding=2), nn.ReLU(),
            nn.Conv1d(width, width, kernel_size=5, padding=2, stride=2), nn.ReLU(),
        )
        self.gru = nn.GRU(width, 64)              # time-major: (T, B, C)
        self.classifier = nn.Linear(64, n_users)

    def forward(self, x):                         # x: (B, 6, T)
        h = self.frontend(x)                      # (B, C, T')
        b, c, t = h.shape
        h = h.reshape(t, b, c)
        _, last = self.gru(h)
        return self.classifier(last[-1])
