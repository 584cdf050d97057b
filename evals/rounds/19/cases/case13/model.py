import torch
import torch.nn as nn


class TraceNet(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, channels, 7, padding=3), nn.ReLU(),
            nn.MaxPool1d(2),
            nn.Conv1d(channels, channels * 2, 5, padding=2), nn.ReLU(),
            nn.AdaptiveMaxPool1d(1),
        )
        self.head = nn.Linear(channels * 2, 1)

    def forward(self, x):
        # x: [B, L] -> logits [B]
        h = self.features(x.unsqueeze(1)).squeeze(-1)
        return self.head(h).squeeze(-1)
