import torch
import torch.nn as nn
import torch.nn.functional as F


class MessagePassing(nn.Module):
    """h_i' = act( W_self h_i + W_nb * sum_j Â_ij h_j )."""

    def __init__(self, d_in, d_out):
        super().__init__()
        self.self_lin = nn.Linear(d_in, d_out)
        self.nb_lin = nn.Linear(d_in, d_out, bias=False)

    def forward(self, h, a_hat):            # h: (G, N, D), a_hat: (G, N, N)
        return self.self_lin(h) + self.nb_lin(torch.bmm(a_hat, h))


class NodeClassifier(nn.Module):
    def __init__(self, d_in, hidden, n_classes, n_layers=2, dropout=0.2):
        super().__init__()
        dims = [d_in] + [hidden] * n_layers
        self.layers = nn.ModuleList(MessagePassing(a, b) for a, b in zip(dims[:-1], dims[1:]))
        self.norms = nn.ModuleList(nn.LayerNorm(hidden) for _ in range(n_layers))
        self.drop = nn.Dropout(dropout)
        self.readout = nn.Linear(hidden, n_classes)

    def forward(self, x, a_hat):
        h = x
        for layer, norm in zip(self.layers, self.norms):
            h = self.drop(F.relu(norm(layer(h, a_hat))))
        return F.log_softmax(self.readout(h), dim=1)     # (G, N, C) log-probabilities
