import torch.nn as nn
import torch.nn.functional as F

from .layers import GraphAttention


class GAT(nn.Module):
    def __init__(self, d_in, n_classes, hidden=8, heads=4, dropout=0.4, attn_dropout=0.2):
        super().__init__()
        self.dropout = dropout
        self.gat1 = GraphAttention(d_in, hidden, heads, concat=True, attn_dropout=attn_dropout)
        self.gat2 = GraphAttention(hidden * heads, n_classes, 1, concat=False, attn_dropout=attn_dropout)

    def forward(self, x, adj):
        x = F.dropout(x, self.dropout, self.training)
        x = F.elu(self.gat1(x, adj))
        x = F.dropout(x, self.dropout, self.training)
        return self.gat2(x, adj)
