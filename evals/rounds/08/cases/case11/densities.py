import math

import torch


def banana(n, gen):
    x1 = torch.randn(n, generator=gen)
    x2 = 0.5 * x1 ** 2 - 1.0 + 0.35 * torch.randn(n, generator=gen)
    return torch.stack([x1, x2], 1)


def four_blobs(n, gen):
    centers = torch.tensor([[1.5, 1.5], [-1.5, 1.5], [-1.5, -1.5], [1.5, -1.5]])
    idx = torch.randint(0, 4, (n,), generator=gen)
    return centers[idx] + 0.4 * torch.randn(n, 2, generator=gen)


def wave(n, gen):
    x1 = 4 * torch.rand(n, generator=gen) - 2
    x2 = torch.sin(math.pi * x1) + 0.25 * torch.randn(n, generator=gen)
    return torch.stack([x1, x2], 1)


DENSITIES = {"banana": banana, "four_blobs": four_blobs, "wave": wave}
