import torch
import torch.nn as nn


class SpectrumBackbone(nn.Module):
    """1-D convs over log-frequency bins; keeps coarse position information."""

    def __init__(self, n_bins, width=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, width, 7, padding=3), nn.GELU(),
            nn.Conv1d(width, width, 5, padding=2, stride=2), nn.GELU(),
            nn.Conv1d(width, width, 5, padding=2, stride=2), nn.GELU(),
            nn.AdaptiveAvgPool1d(8),
        )
        self.out_dim = width * 8

    def forward(self, s):
        return self.net(s.unsqueeze(1)).flatten(1)


class TensionRegressor(nn.Module):
    def __init__(self, n_bins):
        super().__init__()
        self.backbone = SpectrumBackbone(n_bins)
        self.meta = nn.Sequential(nn.Linear(2, 16), nn.GELU())
        self.head = nn.Sequential(nn.Linear(self.backbone.out_dim + 16, 64), nn.GELU(), nn.Linear(64, 1))

    def forward(self, spec, meta):
        z = torch.cat([self.backbone(spec), self.meta(meta)], dim=1)
        return self.head(z).squeeze(-1)
