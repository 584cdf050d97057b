import torch
from torch import nn


class PitchRegressor(nn.Module):
    """Conv feature extractor over the spectrum + an MLP head sized on first use."""

    def __init__(self, channels=16, pooled=24):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, channels, 9, padding=4), nn.ReLU(),
            nn.Conv1d(channels, channels, 9, padding=4), nn.ReLU(),
            nn.AdaptiveMaxPool1d(pooled), nn.Flatten(),
        )
        self.head = None
        self.in_dim = None

    def _make_head(self, n_in):
        return nn.Sequential(nn.Linear(n_in, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        z = self.features(x)
        if self.head is None or z.shape[1] != self.in_dim:
            self.head = self._make_head(z.shape[1])
        return self.head(z).squeeze(-1)
