import torch
import torch.nn as nn


class TremorNet(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        c = channels
        self.features = nn.Sequential(
            nn.Conv1d(1, c, 9, padding=4), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(c, 2 * c, 9, padding=4), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(2 * c, 2 * c, 9, padding=4), nn.ReLU(),
        )
        self.head = nn.Linear(2 * c, 1)

    def forward(self, x):
        h = self.features(x)
        h = h.abs().mean(dim=-1) + h.amax(dim=-1)
        return self.head(h).squeeze(-1)

    def alert_probability(self, x):
        """Probability that the window contains tremor."""
        return torch.sigmoid(self(x))
