import torch
import torch.nn as nn

from .structures import SPECIES


class DenseMPLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Linear(dim, dim)
        self.upd = nn.Sequential(nn.Linear(2 * dim, dim), nn.SiLU())

    def forward(self, h, adj):
        m = torch.bmm(adj, self.msg(h))
        return h + self.upd(torch.cat([h, m], -1))


class LatticeGNN(nn.Module):
    def __init__(self, dim=48, layers=3):
        super().__init__()
        self.embed = nn.Embedding(len(SPECIES) + 1, dim)
        self.layers = nn.ModuleList([DenseMPLayer(dim) for _ in range(layers)])
        self.readout = nn.Linear(dim, 1)
        self.node_embeddings = None      # last node states, for inspection/plots

    def encode(self, types, adj, mask):
        h = self.embed(types) * mask.unsqueeze(-1)
        for layer in self.layers:
            h = layer(h, adj) * mask.unsqueeze(-1)
        return h

    def forward(self, types, adj, mask):
        self.node_embeddings = self.encode(types, adj, mask).detach()
        per_node = self.readout(self.node_embeddings).squeeze(-1) * mask
        return per_node.sum(1)
