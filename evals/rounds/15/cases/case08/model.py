import torch
import torch.nn as nn


class EcgCNN(nn.Module):
    def __init__(self, leads=3, width=24, n_classes=2):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(leads, width, 7, padding=3), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width, 7, padding=3), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(width, width, 7, padding=6, dilation=2), nn.ReLU(),
            nn.Conv1d(width, width, 7, padding=12, dilation=4), nn.ReLU(),
        )
        self.fc = nn.Linear(2 * width, n_classes)

    def forward(self, x):
        h = self.conv(x)
        # max picks up the premature/wide beats, std the beat-to-beat variability
        pooled = torch.cat([h.amax(dim=-1), h.std(dim=-1)], dim=1)
        return self.fc(pooled)
