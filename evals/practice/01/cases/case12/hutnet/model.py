import torch
import torch.nn as nn


def registry_init(registry, dim, seed=0):
    """Project standardised registry columns to `dim` dims as a starting point."""
    g = torch.Generator().manual_seed(seed)
    r = torch.as_tensor(registry)
    r = (r - r.mean(0)) / (r.std(0) + 1e-6)
    proj = torch.randn(r.shape[1], dim, generator=g) / r.shape[1] ** 0.5
    return r @ proj


class OccupancyModel(nn.Module):
    def __init__(self, registry, n_ctx, dim=8, hidden=64):
        super().__init__()
        self.hut = nn.Embedding.from_pretrained(registry_init(registry, dim))
        self.mlp = nn.Sequential(nn.Linear(dim + n_ctx, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, hut, ctx):
        h = torch.cat([self.hut(hut), ctx], dim=-1)
        return torch.sigmoid(self.mlp(h).squeeze(-1))
