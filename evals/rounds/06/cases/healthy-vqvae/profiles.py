import math

import torch


def stroke_profiles(n, length=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 1, length)
    out = torch.zeros(n, 1, length)
    for i in range(n):
        k = int(torch.randint(1, 4, (1,), generator=g))
        sig = torch.zeros(length)
        for _ in range(k):
            c = torch.rand(1, generator=g)
            w = 0.03 + 0.12 * torch.rand(1, generator=g)
            a = 0.5 + torch.rand(1, generator=g)
            sig += a * torch.exp(-0.5 * ((t - c) / w) ** 2)
        f = 2 + 6 * torch.rand(1, generator=g)
        sig += 0.15 * torch.sin(2 * math.pi * f * t)
        out[i, 0] = sig
    return out
