import math

import torch

N_MODES = 8
RADIUS = 2.0
STD = 0.05


def mode_centers():
    angles = torch.arange(N_MODES) * 2 * math.pi / N_MODES
    return RADIUS * torch.stack([torch.cos(angles), torch.sin(angles)], dim=1)


def sample_ring(n, generator=None):
    centers = mode_centers()
    which = torch.randint(N_MODES, (n,), generator=generator)
    return centers[which] + STD * torch.randn(n, 2, generator=generator)
