import math

import torch


def make_spirals(n_per_arm: int = 400, n_arms: int = 3, noise: float = 0.15, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    xs, ys = [], []
    for arm in range(n_arms):
        r = torch.linspace(0.05, 1.0, n_per_arm)
        theta = arm * 2 * math.pi / n_arms + r * 3.0 + noise * torch.randn(n_per_arm, generator=g)
        pts = torch.stack([r * torch.cos(theta), r * torch.sin(theta)], dim=1)
        xs.append(pts)
        ys.append(torch.full((n_per_arm,), arm, dtype=torch.long))
    x = torch.cat(xs)
    y = torch.cat(ys)
    perm = torch.randperm(len(x), generator=g)
    return x[perm], y[perm]


def train_test_split(x, y, test_frac: float = 0.25):
    n_test = int(len(x) * test_frac)
    return (x[n_test:], y[n_test:]), (x[:n_test], y[:n_test])
