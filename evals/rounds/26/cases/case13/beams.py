import math

import torch

N_BINS = 48


def beam_profiles(n, gen):
    """Synthetic lantern profiles, roughly normalised to [0, 1]."""
    ang = torch.linspace(-math.pi, math.pi, N_BINS)
    centre = (torch.rand(n, 1, generator=gen) - 0.5) * 2.0
    width = 0.15 + 0.25 * torch.rand(n, 1, generator=gen)
    peak = 0.6 + 0.4 * torch.rand(n, 1, generator=gen)
    back = 0.25 * torch.rand(n, 1, generator=gen)
    haze = 0.05 + 0.1 * torch.rand(n, 1, generator=gen)
    main = peak * torch.exp(-0.5 * ((ang - centre) / width) ** 2)
    opp = back * torch.exp(-0.5 * ((ang - centre + math.pi) / (2 * width)) ** 2)
    opp = opp + back * torch.exp(-0.5 * ((ang - centre - math.pi) / (2 * width)) ** 2)
    return main + opp + haze + 0.01 * torch.randn(n, N_BINS, generator=gen)


def sliced_wasserstein(a, b, n_proj=128, gen=None):
    proj = torch.randn(a.shape[1], n_proj, generator=gen)
    proj = proj / proj.norm(dim=0, keepdim=True)
    pa, _ = torch.sort(a @ proj, dim=0)
    pb, _ = torch.sort(b @ proj, dim=0)
    return (pa - pb).abs().mean().item()
