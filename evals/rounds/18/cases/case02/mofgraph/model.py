import torch
import torch.nn as nn


class MessageLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.self_lin = nn.Linear(d, d)
        self.nb_lin = nn.Linear(d, d)

    def forward(self, h, adj):
        return torch.relu(self.self_lin(h) + adj @ self.nb_lin(h))


class MOFRegressor(nn.Module):
    def __init__(self, n_types, d=64, rounds=3):
        super().__init__()
        self.embed = nn.Linear(n_types, d)
        self.layers = nn.ModuleList(MessageLayer(d) for _ in range(rounds))
        self.readout = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, 1))
        self.node_states = None

    def node_embeddings(self, x, adj, mask):
        h = torch.relu(self.embed(x))
        for layer in self.layers:
            h = layer(h, adj) * mask.unsqueeze(-1)
        # keep the last node states around for the embedding plots in notebooks/
        self.node_states = h.detach()
        return self.node_states

    def forward(self, x, adj, mask):
        h = self.node_embeddings(x, adj, mask)
        per_node = self.readout(h).squeeze(-1) * mask
        return per_node.sum(1)
