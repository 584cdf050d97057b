import torch
import torch.nn as nn


class ChewCNN(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, ch, 7, padding=3), nn.ReLU(), nn.MaxPool1d(4),
            nn.Conv1d(ch, ch * 2, 5, padding=2), nn.ReLU(), nn.MaxPool1d(4),
            nn.Conv1d(ch * 2, ch * 2, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Linear(ch * 2 * 2, 2)

    def forward(self, x):
        h = self.features(x.unsqueeze(1))
        # mean and max over time keep both the level and the peaks
        h = torch.cat([h.mean(-1), h.amax(-1)], dim=1)
        return self.head(h)
