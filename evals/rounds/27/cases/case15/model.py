import torch
import torch.nn as nn


class PlantForceNet(nn.Module):
    def __init__(self, channels=3, width=32):
        super().__init__()
        self.width = width
        self.conv = nn.Sequential(
            nn.Conv1d(channels, width, 5, padding=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2, stride=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2, stride=2), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(width, 1))

    def _summarize(self, feats):
        """Mean and max over time, projected back to the model width."""
        pooled = torch.cat([feats.mean(-1), feats.amax(-1)], dim=1)
        proj = nn.Linear(pooled.size(1), self.width).to(pooled.device)
        return proj(pooled)

    def forward(self, x):
        return self.head(self._summarize(self.conv(x))).squeeze(-1)
