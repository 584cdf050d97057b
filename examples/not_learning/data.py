import torch


def spiral(n_per_class=200, classes=3, noise=0.2, seed=0):
    g = torch.Generator().manual_seed(seed)
    xs, ys = [], []
    for c in range(classes):
        r = torch.linspace(0.0, 1.0, n_per_class)
        t = torch.linspace(c * 4.0, (c + 1) * 4.0, n_per_class) + noise * torch.randn(n_per_class, generator=g)
        xs.append(torch.stack([r * torch.sin(t), r * torch.cos(t)], dim=1))
        ys.append(torch.full((n_per_class,), c, dtype=torch.long))
    x, y = torch.cat(xs), torch.cat(ys)
    perm = torch.randperm(len(y), generator=g)
    return x[perm], y[perm]
