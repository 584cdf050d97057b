import torch
import torch.nn as nn


class GatedAttentionPool(nn.Module):
    """Gated attention pooling over the instances of a bag."""

    def __init__(self, dim, hidden=32):
        super().__init__()
        self.v = nn.Linear(dim, hidden)
        self.u = nn.Linear(dim, hidden)
        self.w = nn.Linear(hidden, 1)

    def forward(self, h, mask):
        # h: instance embeddings, mask: True where an instance exists
        scores = self.w(torch.tanh(self.v(h)) * torch.sigmoid(self.u(h))).squeeze(-1)
        scores = scores.masked_fill(~mask, float("-inf"))
        attn = torch.softmax(scores, dim=0)
        attn = torch.nan_to_num(attn)
        return (attn.unsqueeze(-1) * h).sum(-2), attn


class BagRegressor(nn.Module):
    def __init__(self, d_in, dim=48):
        super().__init__()
        self.embed = nn.Sequential(nn.Linear(d_in, dim), nn.ReLU(), nn.Linear(dim, dim), nn.ReLU())
        self.pool = GatedAttentionPool(dim)
        self.head = nn.Linear(dim, 1)

    def forward(self, x, mask):
        z, _ = self.pool(self.embed(x), mask)
        return self.head(z).squeeze(-1)
