import torch
import torch.nn as nn


class CartModel(nn.Module):
    def __init__(self, n_num, n_entrances, emb_dim, hidden):
        super().__init__()
        self.entrance = nn.Embedding(n_entrances, emb_dim)
        self.mlp = nn.Sequential(nn.Linear(n_num + emb_dim, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 1))

    def forward(self, num, ent):
        return self.mlp(torch.cat([num, self.entrance(ent)], -1)).squeeze(-1)
