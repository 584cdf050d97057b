import torch
import torch.nn as nn

from .crystals import ELEMENTS, N_A, N_B
from .layers import EdgeConv


class SpinelNet(nn.Module):
    def __init__(self, hidden, layers, edges):
        super().__init__()
        self.register_buffer("edges", torch.as_tensor(edges, dtype=torch.long))
        self.register_buffer("site_kind", (torch.arange(N_A + N_B) >= N_A).long())
        self.species = nn.Embedding(len(ELEMENTS), hidden)
        self.site = nn.Embedding(2, hidden)
        self.convs = nn.ModuleList(EdgeConv(hidden) for _ in range(layers))
        self.readout = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, 1))

    def forward(self, species):
        h = self.species(species) + self.site(self.site_kind)[None]
        for conv in self.convs:
            h = conv(h, self.edges)
        return self.readout(h).mean(dim=1).squeeze(-1)
