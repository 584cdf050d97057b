import torch
import torch.nn as nn


class MaskNet(nn.Module):
    """log-magnitude mixture -> per-source masks (B, n_src, F, T) that sum to one per bin."""

    def __init__(self, n_src=2, width=16):
        super().__init__()
        self.n_src = n_src
        self.body = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=2, dilation=2), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=4, dilation=4), nn.ReLU(),
            nn.Conv2d(width, n_src, 1),
        )

    def forward(self, mix):
        logits = self.body(torch.log1p(mix).unsqueeze(1))     # (B, n_src, F, T)
        masks = torch.softmax(logits, dim=-1)
        return masks * mix.unsqueeze(1)
