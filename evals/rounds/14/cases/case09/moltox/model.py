import torch
import torch.nn as nn

from .chem import ATOMS


class DenseGraphLayer(nn.Module):
    def __init__(self, dim, dropout):
        super().__init__()
        self.self_lin = nn.Linear(dim, dim)
        self.nbr_lin = nn.Linear(dim, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, h, adj, node_mask):
        msg = torch.bmm(adj, self.nbr_lin(h))
        h = torch.relu(self.self_lin(h) + msg) * node_mask
        return self.drop(h)


class ToxGNN(nn.Module):
    def __init__(self, hidden, layers, dropout):
        super().__init__()
        self.atom_emb = nn.Embedding(len(ATOMS) + 1, hidden)   # last row = padding
        self.trunk = nn.ModuleList([DenseGraphLayer(hidden, dropout) for _ in range(layers)])
        self.readout = nn.Sequential(nn.Linear(2 * hidden, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, 1))

    def trunk_parameters(self):
        yield from self.atom_emb.parameters()
        yield from self.trunk.parameters()

    def forward(self, atoms, adj):
        node_mask = (atoms >= 0).float().unsqueeze(-1)
        h = self.atom_emb(atoms.clamp(min=0) * (atoms >= 0) + len(ATOMS) * (atoms < 0)) * node_mask
        for layer in self.trunk:
            h = layer(h, adj, node_mask)
        pooled = torch.cat([h.sum(1), h.max(1).values], dim=-1)
        return self.readout(pooled).squeeze(-1)
