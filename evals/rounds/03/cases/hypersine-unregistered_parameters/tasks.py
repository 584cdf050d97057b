"""A family of 1-D regression tasks y = a * sin(f * x + phi) + c.

A task is described by its (noisy) parameter vector; the hypernetwork maps the
descriptor to the weights of a small regressor for that task."""
import math

import torch


def sample_tasks(n, gen):
    a = 0.5 + 1.5 * torch.rand(n, generator=gen)
    f = 0.5 + 1.5 * torch.rand(n, generator=gen)
    phi = math.pi * torch.rand(n, generator=gen)
    c = torch.rand(n, generator=gen) - 0.5
    return torch.stack([a, f, phi, c], dim=1)


def descriptor(params, gen, noise=0.02):
    lo = torch.tensor([0.5, 0.5, 0.0, -0.5])
    hi = torch.tensor([2.0, 2.0, math.pi, 0.5])
    d = 2 * (params - lo) / (hi - lo) - 1            # scale to [-1, 1]
    return d + noise * torch.randn(d.shape, generator=gen)


def sample_points(params, n_points, gen):
    x = (torch.rand(len(params), n_points, 1, generator=gen) * 2 - 1) * math.pi
    a, f, phi, c = [params[:, i].view(-1, 1, 1) for i in range(4)]
    return x, a * torch.sin(f * x + phi) + c
