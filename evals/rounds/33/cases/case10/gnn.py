import torch
import torch.nn as nn

from network import N_STATIONS, RELATIONS, edges


class RelationalLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.self_loop = nn.Linear(dim, dim)
        self.rel = {}
        for r in RELATIONS:
            self.rel[r] = nn.Parameter(torch.randn(dim, dim) / dim ** 0.5)
        adj = torch.zeros(len(RELATIONS), N_STATIONS, N_STATIONS)
        for s, d, r in edges():
            adj[RELATIONS.index(r), d, s] = 1.0
        self.register_buffer("adj", adj)

    def forward(self, h):                      # h: (batch, stations, dim)
        out = self.self_loop(h)
        for i, r in enumerate(RELATIONS):
            out = out + self.adj[i] @ h @ self.rel[r]
        return torch.relu(out)


class QueueGNN(nn.Module):
    def __init__(self, d_in=2, dim=32, layers=2):
        super().__init__()
        self.inp = nn.Linear(d_in, dim)
        self.layers = nn.ModuleList(RelationalLayer(dim) for _ in range(layers))
        self.out = nn.Linear(dim, 1)

    def forward(self, x):
        h = torch.relu(self.inp(x))
        for layer in self.layers:
            h = layer(h)
        return self.out(h).squeeze(-1)
