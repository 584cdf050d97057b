import torch
import torch.nn as nn


class BranchConv(nn.Module):
    """h_i' = act(W_self h_i + W_nb mean_{j in N(i)} h_j)."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.self_lin = nn.Linear(d_in, d_out)
        self.nb_lin = nn.Linear(d_in, d_out, bias=False)

    def forward(self, h, adj):
        deg = adj.sum(-1, keepdim=True).clamp(min=1)
        nb = torch.bmm(adj, h) / deg
        return torch.relu(self.self_lin(h) + self.nb_lin(nb))


class FernNet(nn.Module):
    def __init__(self, n_feat, hidden=48, n_layers=3):
        super().__init__()
        dims = [n_feat + 1] + [hidden] * n_layers
        self.convs = []
        for d_in, d_out in zip(dims[:-1], dims[1:]):
            self.convs.append(BranchConv(d_in, d_out))
        self.readout = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(),
                                     nn.Linear(hidden, 1))

    def forward(self, feat, adj, mask):
        deg = adj.sum(-1, keepdim=True)
        h = torch.cat([feat, deg / 4.0], dim=-1)
        for conv in self.convs:
            h = conv(h, adj) * mask.unsqueeze(-1)
        pooled = h.sum(1)
        return self.readout(pooled).squeeze(-1)
