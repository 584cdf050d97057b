import torch
import torch.nn as nn


class NeuMF(nn.Module):
    def __init__(self, n_users, n_items, gmf_dim=16, mlp_dim=16, hidden=(64, 32)):
        super().__init__()
        self.gmf_u = nn.Embedding(n_users, gmf_dim)
        self.gmf_i = nn.Embedding(n_items, gmf_dim)
        self.mlp_u = nn.Embedding(n_users, mlp_dim)
        self.mlp_i = nn.Embedding(n_items, mlp_dim)
        layers, d = [], 2 * mlp_dim
        for h in hidden:
            layers += [nn.Linear(d, h), nn.ReLU()]
            d = h
        self.mlp = nn.Sequential(*layers)
        self.fuse = nn.Linear(gmf_dim + d, 1)
        self.global_bias = nn.Parameter(torch.tensor(3.0))
        for e in (self.gmf_u, self.gmf_i, self.mlp_u, self.mlp_i):
            nn.init.normal_(e.weight, std=0.05)

    def forward(self, u, i):
        g = self.gmf_u(u) * self.gmf_i(i)
        m = self.mlp(torch.cat([self.mlp_u(u), self.mlp_i(i)], dim=-1))
        return self.fuse(torch.cat([g, m], dim=-1)).squeeze(-1) + self.global_bias
