import torch
import torch.nn as nn


class MPLayer(nn.Module):
    def __init__(self, dim, dropout):
        super().__init__()
        self.msg = nn.Linear(dim, dim)
        self.upd = nn.Sequential(nn.Linear(2 * dim, dim), nn.BatchNorm1d(dim), nn.ReLU(), nn.Dropout(dropout))

    def forward(self, h, edge_index):
        src, dst = edge_index
        agg = torch.zeros_like(h).index_add_(0, dst, self.msg(h)[src])
        return h + self.upd(torch.cat([h, agg], -1))


class MolNet(nn.Module):
    def __init__(self, n_types=4, dim=48, layers=3, dropout=0.2):
        super().__init__()
        self.embed = nn.Embedding(n_types, dim)
        self.layers = nn.ModuleList(MPLayer(dim, dropout) for _ in range(layers))
        self.readout = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Dropout(dropout), nn.Linear(dim, 1))

    def forward(self, x, edge_index, batch, n_graphs):
        h = self.embed(x)
        for layer in self.layers:
            h = layer(h, edge_index)
        pooled = torch.zeros(n_graphs, h.size(1)).index_add_(0, batch, h)
        return self.readout(pooled).squeeze(-1)
