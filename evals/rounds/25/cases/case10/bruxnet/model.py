import torch
import torch.nn as nn


class JawConv(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, ch, 7, padding=3), nn.ReLU(),
            nn.Conv1d(ch, ch, 7, padding=3, stride=2), nn.ReLU(),
            nn.Conv1d(ch, ch, 5, padding=2, stride=2), nn.ReLU(),
        )
        self.head = nn.Linear(2 * ch, 2)

    def forward(self, x):
        h = self.features(x)
        # mean and peak activity over the window
        pooled = torch.cat([h.mean(-1), h.amax(-1)], dim=1)
        return self.head(pooled)
