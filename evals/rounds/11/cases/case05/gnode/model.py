import torch
import torch.nn as nn


class GraphConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.self_lin = nn.Linear(d_in, d_out)
        self.nbr_lin = nn.Linear(d_in, d_out, bias=False)

    def forward(self, h, P):
        return self.self_lin(h) + self.nbr_lin(P @ h)


class NodeRegressor(nn.Module):
    def __init__(self, d_in, hidden=64):
        super().__init__()
        self.c1 = GraphConv(d_in, hidden)
        self.c2 = GraphConv(hidden, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, P):
        h = torch.relu(self.c1(x, P))
        h = torch.relu(self.c2(h, P))
        return self.out(h)          # (N, 1)
