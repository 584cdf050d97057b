import math

import torch

SHAPES = ["ring", "segment", "square", "blob"]


def _sample_shape(kind, n_points, g):
    u = torch.rand(n_points, generator=g)
    if kind == 0:
        a = 2 * math.pi * u
        pts = torch.stack([a.cos(), a.sin()], 1)
    elif kind == 1:
        theta = torch.rand(1, generator=g) * math.pi
        direction = torch.cat([theta.cos(), theta.sin()])
        pts = (2 * u - 1).unsqueeze(1) * direction
    elif kind == 2:
        side = torch.randint(0, 4, (n_points,), generator=g)
        t = 2 * u - 1
        ones = torch.ones_like(t)
        xs = torch.where(side == 0, -ones, torch.where(side == 1, ones, t))
        ys = torch.where(side == 2, -ones, torch.where(side == 3, ones, t))
        pts = torch.stack([xs, ys], 1) * 0.8
    else:
        pts = torch.randn(n_points, 2, generator=g) * 0.45
    scale = 0.7 + 0.6 * torch.rand(1, generator=g)
    shift = 0.1 * torch.randn(1, 2, generator=g)
    return pts * scale + shift + 0.06 * torch.randn(n_points, 2, generator=g)


def make_point_sets(n_sets, n_points=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = torch.randint(0, len(SHAPES), (n_sets,), generator=g)
    clouds = torch.stack([_sample_shape(int(k), n_points, g) for k in labels])
    return clouds, labels                           # (N, P, 2), (N,)
