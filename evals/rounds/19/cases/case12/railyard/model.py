import torch
import torch.nn as nn

from .layers import MeanConv


class DwellGNN(nn.Module):
    def __init__(self, d_in=3, hidden=32, n_layers=2):
        super().__init__()
        dims = [d_in] + [hidden] * n_layers
        self.convs = [MeanConv(a, b) for a, b in zip(dims[:-1], dims[1:])]
        # skip connection of the raw track features into the readout
        self.readout = nn.Sequential(nn.Linear(hidden + d_in, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x, edge_index):
        h = x
        for conv in self.convs:
            h = conv(h, edge_index)
        return self.readout(torch.cat([h, x], dim=1)).squeeze(-1)
