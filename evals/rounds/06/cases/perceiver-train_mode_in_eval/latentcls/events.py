import math

import torch

TOPOLOGIES = ("track", "ring", "dijet", "burst")


def _hits(kind, n, g):
    u = torch.rand(n, generator=g)
    if kind == "track":
        a = torch.rand(1, generator=g) * math.pi
        xy = torch.stack([u * torch.cos(a), u * torch.sin(a)], 1) * 2 - 1 + 0.05 * torch.randn(n, 2, generator=g)
    elif kind == "ring":
        r = 0.3 + 0.5 * torch.rand(1, generator=g)
        ang = u * 2 * math.pi
        xy = r * torch.stack([torch.cos(ang), torch.sin(ang)], 1) + 0.05 * torch.randn(n, 2, generator=g)
    elif kind == "dijet":
        c = torch.rand(2, 2, generator=g) * 1.6 - 0.8
        which = (u > 0.5).long()
        xy = c[which] + 0.12 * torch.randn(n, 2, generator=g)
    else:
        xy = torch.rand(n, 2, generator=g) * 2 - 1
    energy = torch.rand(n, 1, generator=g)
    time = torch.rand(n, 1, generator=g)
    return torch.cat([xy, energy, time], 1)


def make_split(n_per_class, n_hits, seed):
    """Samples are produced topology by topology."""
    g = torch.Generator().manual_seed(seed)
    xs, ys = [], []
    for k, kind in enumerate(TOPOLOGIES):
        for _ in range(n_per_class):
            xs.append(_hits(kind, n_hits, g))
            ys.append(k)
    return torch.stack(xs), torch.tensor(ys)
