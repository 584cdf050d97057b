import torch
import torch.nn as nn


class LatentBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm_q = nn.LayerNorm(dim)
        self.norm_kv = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, q, kv):
        kv = self.norm_kv(kv)
        q = q + self.attn(self.norm_q(q), kv, kv, need_weights=False)[0]
        return q + self.ff(q)


class Perceiver(nn.Module):
    def __init__(self, in_dim=4, dim=48, n_latents=8, heads=4, n_classes=4, p_drop=0.3):
        super().__init__()
        self.inp = nn.Linear(in_dim, dim)
        self.latents = nn.Parameter(torch.randn(n_latents, dim) * 0.02)
        self.cross = LatentBlock(dim, heads)
        self.self_attn = LatentBlock(dim, heads)
        self.head = nn.Sequential(
            nn.Linear(dim, dim), nn.BatchNorm1d(dim), nn.ReLU(), nn.Dropout(p_drop),
            nn.Linear(dim, n_classes),
        )

    def forward(self, hits):
        kv = self.inp(hits)
        z = self.latents.expand(hits.size(0), -1, -1)
        z = self.cross(z, kv)
        z = self.self_attn(z, z)
        return self.head(z.mean(dim=1))
