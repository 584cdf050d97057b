import torch
import torch.nn as nn


class StrokeNet(nn.Module):
    """GRU over the IMU window: (batch, time, channels) in, one power value out."""

    def __init__(self, channels, hidden=32, kernel=5):
        super().__init__()
        # a light per-frame projection before the recurrent layer
        self.frame = nn.Linear(channels, hidden)
        self.gru = nn.GRU(hidden, hidden)          # sequence-first layout
        self.head = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        b, t, c = x.shape
        x = x.reshape(t, b, c)          # GRU here is (time, batch, feature)
        out, h = self.gru(torch.relu(self.frame(x)))
        feats = torch.cat([h[-1], out.mean(0)], dim=1)
        return self.head(feats).squeeze(-1)
