import torch
import torch.nn as nn

from .sim import PRED


class MultiModalPredictor(nn.Module):
    def __init__(self, k=3, hidden=64):
        super().__init__()
        self.k = k
        self.encoder = nn.GRU(2, hidden, batch_first=True)
        self.decoder = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, k * PRED * 2))
        self.mode_head = nn.Linear(hidden, k)

    def forward(self, obs_vel):
        _, h = self.encoder(obs_vel)
        h = h[-1]
        steps = self.decoder(h).view(-1, self.k, PRED, 2)
        futures = steps.cumsum(dim=2)                    # displacements -> relative positions
        return futures, self.mode_head(h)
