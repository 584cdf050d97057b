"""Batch-level augmentations on (batch, length) tensors."""
import torch


def weak(x, gen):
    # random circular shift + small gain change
    shift = int(torch.randint(-8, 9, (1,), generator=gen))
    gain = 1.0 + 0.1 * torch.randn(x.size(0), 1, generator=gen)
    return torch.roll(x, shift, dims=1) * gain


def strong(x, gen):
    b, n = x.shape
    x = weak(x, gen)
    x = x + 0.3 * torch.randn(b, n, generator=gen)
    # cut out a random segment of each example
    start = torch.randint(0, n - 24, (b, 1), generator=gen)
    pos = torch.arange(n).unsqueeze(0)
    cut = (pos >= start) & (pos < start + torch.randint(8, 24, (b, 1), generator=gen))
    x = x.masked_fill(cut, 0.0)
    # random sign flip (all six families are symmetric under it)
    sign = torch.where(torch.rand(b, 1, generator=gen) < 0.5, -1.0, 1.0)
    return x * sign
