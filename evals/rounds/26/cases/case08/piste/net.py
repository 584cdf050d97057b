import torch
from torch import nn

from .kinematics import JOINTS


class TemporalConvNet(nn.Module):
    """Joints as channels, 1-D convolutions over time, global pooling."""

    def __init__(self, n_classes, width=32):
        super().__init__()
        c = len(JOINTS)
        self.features = nn.Sequential(
            nn.Conv1d(c, width, 5, padding=2), nn.ReLU(),
            nn.Conv1d(width, width, 5, padding=2, dilation=1), nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(width, 2 * width, 5, padding=4, dilation=2), nn.ReLU(),
        )
        self.head = nn.Linear(4 * width, n_classes)

    def forward(self, clips):
        # clips come in as [batch, time, joint]
        b = clips.shape[0]
        x = clips.reshape(b, len(JOINTS), -1)
        h = self.features(x)
        pooled = torch.cat([h.mean(-1), h.amax(-1)], dim=1)
        return self.head(pooled)
