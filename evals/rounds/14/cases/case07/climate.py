import math

import torch


def simulate(n_glaciers=48, n_months=1200, seed=0):
    """Inputs [G, T, 3] (temperature, precipitation, month-of-year phase) and
    monthly mass balance [G, T] in m w.e."""
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n_months).float()
    season = torch.cos(2 * math.pi * t / 12)
    elev_offset = torch.randn(n_glaciers, 1, generator=g) * 2.0
    temp = -2.0 - 8.0 * season[None] + elev_offset + 1.5 * torch.randn(n_glaciers, n_months, generator=g)
    temp = temp + 0.002 * t[None]                                  # slow warming
    precip = (torch.rand(n_glaciers, n_months, generator=g) * 0.25) * (1 + 0.5 * season[None])
    snow = torch.zeros(n_glaciers)
    mb = torch.zeros(n_glaciers, n_months)
    for m in range(n_months):
        pdd = temp[:, m].clamp(min=0) * 30
        acc = precip[:, m] * (temp[:, m] < 1.0).float()
        snow = snow + acc
        melt_snow = torch.minimum(snow, 0.003 * pdd)
        snow = snow - melt_snow
        leftover = 0.003 * pdd - melt_snow
        melt_ice = leftover * (0.007 / 0.003)                      # bare ice melts faster
        mb[:, m] = acc - melt_snow - melt_ice
    phase = torch.stack([torch.sin(2 * math.pi * t / 12), torch.cos(2 * math.pi * t / 12)], -1)
    x = torch.cat([temp[..., None] / 10, precip[..., None] * 4, phase[None].expand(n_glaciers, -1, -1)], -1)
    return x, mb
