import torch
import torch.nn as nn


class GapFiller(nn.Module):
    """MLP over the whole (hours x stations) window plus the observation mask.

    The network predicts a correction on top of the zero-filled input, so kept
    readings pass straight through and the MLP only has to learn the fill-in.
    """

    def __init__(self, length, n_stations, hidden=256):
        super().__init__()
        d = length * n_stations
        self.net = nn.Sequential(
            nn.Linear(2 * d, hidden), nn.GELU(),
            nn.Linear(hidden, hidden), nn.GELU(),
            nn.Linear(hidden, d),
        )

    def forward(self, x_in, observed):
        B, L, S = x_in.shape
        h = torch.cat([x_in.reshape(B, -1), observed.reshape(B, -1)], dim=1)
        return x_in + self.net(h).reshape(B, L, S)
