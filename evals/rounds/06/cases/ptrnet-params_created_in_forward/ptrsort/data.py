import torch


def sort_batch(batch, n, gen):
    x = torch.rand(batch, n, generator=gen)
    return x, x.argsort(dim=1)
