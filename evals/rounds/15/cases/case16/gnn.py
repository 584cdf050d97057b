import numpy as np
import torch
import torch.nn as nn


def mean_pool(h, batch, n_graphs):
    """Average node states per graph (segment mean)."""
    out = np.zeros((n_graphs, h.shape[1]), dtype=np.float32)
    counts = np.bincount(batch.numpy(), minlength=n_graphs).astype(np.float32)
    np.add.at(out, batch.numpy(), h.detach().numpy())
    return torch.from_numpy(out / counts[:, None])


class EdgeConv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Sequential(nn.Linear(2 * dim, dim), nn.ReLU())
        self.upd = nn.Linear(2 * dim, dim)

    def forward(self, h, edge_index):
        src, dst = edge_index
        m = self.msg(torch.cat([h[src], h[dst]], dim=1))
        agg = torch.zeros_like(h).index_add_(0, dst, m)
        return torch.relu(self.upd(torch.cat([h, agg], dim=1)))


class PolymerGNN(nn.Module):
    def __init__(self, n_types, dim=32, layers=2):
        super().__init__()
        self.embed = nn.Linear(n_types, dim)
        self.convs = nn.ModuleList([EdgeConv(dim) for _ in range(layers)])
        self.head = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))

    def forward(self, x, edge_index, batch, n_graphs):
        h = torch.relu(self.embed(x))
        for conv in self.convs:
            h = conv(h, edge_index)
        return self.head(mean_pool(h, batch, n_graphs)).squeeze(-1)
