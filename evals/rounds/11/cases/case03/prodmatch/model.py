import torch
import torch.nn as nn
import torch.nn.functional as F


class TitleEncoder(nn.Module):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.proj = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, ids):
        mask = (ids != 0).float().unsqueeze(-1)
        pooled = (self.emb(ids) * mask).sum(1) / mask.sum(1).clamp_min(1.0)
        return F.normalize(self.proj(pooled), dim=-1)


class CosineMatcher(nn.Module):
    """Match logit = exp(log_scale) * cos(a, b) + bias, scale learned (inverse temperature)."""

    def __init__(self, vocab_size, dim, init_scale):
        super().__init__()
        self.encoder = TitleEncoder(vocab_size, dim)
        self.log_scale = nn.Parameter(torch.tensor(float(init_scale)).log())
        self.bias = nn.Parameter(torch.zeros(()))

    def forward(self, a, b):
        cos = (self.encoder(a) * self.encoder(b)).sum(-1)
        return self.log_scale.exp().clamp(max=100.0) * cos + self.bias
