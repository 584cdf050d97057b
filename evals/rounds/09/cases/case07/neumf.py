import torch
import torch.nn as nn


class NeuMF(nn.Module):
    def __init__(self, n_users, n_items, dim, layers):
        super().__init__()
        self.gmf_u = nn.Embedding(n_users, dim)
        self.gmf_i = nn.Embedding(n_items, dim)
        self.mlp_u = nn.Embedding(n_users, dim)
        self.mlp_i = nn.Embedding(n_items, dim)
        blocks, d = [], 2 * dim
        for h in layers:
            blocks += [nn.Linear(d, h), nn.ReLU()]
            d = h
        self.mlp = nn.Sequential(*blocks)
        self.predict = nn.Linear(dim + d, 1)
        for emb in (self.gmf_u, self.gmf_i, self.mlp_u, self.mlp_i):
            nn.init.normal_(emb.weight, std=0.05)

    def forward(self, users, items):
        g = self.gmf_u(users) * self.gmf_i(items)
        m = self.mlp(torch.cat([self.mlp_u(users), self.mlp_i(items)], dim=-1))
        return self.predict(torch.cat([g, m], dim=-1)).squeeze(-1)
