import torch
from torch import nn

from board import N_PLANES, SIZE


class LegalityNet(nn.Module):
    """Conv trunk over the planes, then a linear readout to one logit."""

    def __init__(self, width=32, hidden=128):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(N_PLANES, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Flatten(),
            nn.Linear(width * SIZE * SIZE, hidden), nn.ReLU(),
        )
        # readout starts at zero so every position begins at p(legal)=0.5
        self.w_out = torch.zeros(hidden, requires_grad=True)
        self.b_out = torch.zeros(1, requires_grad=True)

    def forward(self, planes):
        return self.trunk(planes) @ self.w_out + self.b_out
